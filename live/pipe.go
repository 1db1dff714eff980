package live

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mafredri/cdp/rpcc"

	"github.com/domsnap/domsnap/internal/jsonlex"
)

// The browser speaks the DevTools protocol over two pipes rather than a TCP
// port (--remote-debugging-pipe): a port on loopback is open to every local
// user, who could then drive every tab of every session without any of the
// server's checks; a pipe is open only to the process that made it.
//
// The protocol then has one connection for the whole browser. A tab is
// reached through a flattened session (Target.attachToTarget with flatten):
// its messages carry a top-level "sessionId". devtoolsPipe turns the one
// connection into one virtual connection per session, each an rpcc.Conn of
// its own, so every tab keeps its own event streams and pending calls as it
// had with a WebSocket of its own.
//
// Ordering: the browser writes a session's events and replies to the pipe in
// the order it produced them, the one reader below hands each message to its
// session's queue in the order it read them, and rpcc reads a queue one
// message at a time, delivering an event to its streams before it reads the
// next message. So a session still sees its events before the reply of any
// command sent after them, which Page's navigation count relies on. The
// reader never waits for a session to take a message (the queues are not
// bounded), so a tab whose messages nobody reads does not hold up the others.

// pipeReaders counts the pipe reader goroutines running and pipeConns the
// virtual connections open, in the whole process, so tests can show that
// none outlives its browser.
var pipeReaders, pipeConns atomic.Int64

// devtoolsPipe is the browser's one DevTools connection.
type devtoolsPipe struct {
	w   *os.File   // commands, read by the browser on its fd 3
	r   *os.File   // replies and events, written by the browser on its fd 4
	wmu sync.Mutex // one whole message is written at a time

	mu     sync.Mutex
	conns  map[string]*pipeConn // by session id; "" is the browser itself
	closed bool

	done chan struct{} // closed when the reader has returned
	once sync.Once
}

// newPipes makes the two pipes a browser is started with: the files to give
// the child as its fds 3 and 4, and ours. The caller closes the child's
// files once the child has started (or failed to).
func newPipes() (child []*os.File, p *devtoolsPipe, err error) {
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	evR, evW, err := os.Pipe()
	if err != nil {
		cmdR.Close()
		cmdW.Close()
		return nil, nil, err
	}
	p = &devtoolsPipe{w: cmdW, r: evR, conns: map[string]*pipeConn{}, done: make(chan struct{})}
	return []*os.File{cmdR, evW}, p, nil
}

// start runs the reader. It returns when the browser closes its end (it
// exited) or close is called.
func (p *devtoolsPipe) start() {
	pipeReaders.Add(1)
	go p.read()
}

func (p *devtoolsPipe) read() {
	defer pipeReaders.Add(-1)
	defer close(p.done)
	defer p.close()
	br := bufio.NewReaderSize(p.r, 64<<10)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		m, ok := parseMessage(msg[:len(msg)-1])
		if !ok {
			// Not a message of the protocol; nobody could read it.
			continue
		}
		p.mu.Lock()
		c := p.conns[m.session]
		var ended *pipeConn
		if m.method == "Target.detachedFromTarget" {
			// The browser's own session never detaches; an event that
			// names no session names no connection.
			if sid := detachedSession(m.params); sid != "" {
				ended = p.conns[sid]
			}
		}
		p.mu.Unlock()
		if ended != nil {
			ended.markDetached()
		}
		// A message of a session no longer open (a reply to a call that
		// timed out on a tab closed since) has nobody to go to. A session
		// sends nothing before its first command, which is only sent once
		// it is open, so nothing is lost for one being opened.
		if c != nil {
			c.push(m)
		}
	}
}

// close ends every virtual connection and closes both pipes, which ends the
// reader. It is safe to call more than once.
func (p *devtoolsPipe) close() {
	p.once.Do(func() {
		p.mu.Lock()
		p.closed = true
		conns := p.conns
		p.conns = map[string]*pipeConn{}
		p.mu.Unlock()
		for _, c := range conns {
			c.end()
		}
		// Not under wmu: a write the browser does not read (its pipe is
		// full) holds wmu until this Close makes it fail.
		p.w.Close()
		p.r.Close()
	})
}

// wait waits at most d for the reader to return, and reports whether it did.
func (p *devtoolsPipe) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// wireMessage is one protocol message as the reader splits it: the members
// the router and rpcc read, each value left as the bytes the browser wrote
// (slices of the message, which nothing else holds). So a reply is walked
// once, by jsonlex, on its way in: a large one (a capture is megabytes) is
// neither copied nor validated again before the caller reads it, as
// decoding it into rpcc.Response with encoding/json did, twice over.
type wireMessage struct {
	// session is the top-level "sessionId", "" for the browser itself.
	session string
	// id is a reply's, method an event's.
	id     uint64
	method string
	// result, params and errValue are the raw values of "result",
	// "params" and "error", nil where the message has none.
	result, params, errValue []byte
}

// parseMessage splits a message into its top-level members; false when it
// is not a JSON object or its id is not a count. Members may come in any
// order, and one nested in a value is never taken for a top-level one.
func parseMessage(msg []byte) (wireMessage, bool) {
	var m wireMessage
	l := jsonlex.Lexer{Data: msg}
	str := func() (string, error) {
		sp, err := l.StringSpan("")
		return l.Decode(sp), err
	}
	err := l.Members("", func(k jsonlex.Span) error {
		var err error
		l.SkipSpace()
		switch l.Decode(k) {
		case "sessionId":
			m.session, err = str()
		case "method":
			m.method, err = str()
		case "id":
			var n []byte
			if n, err = l.Number(""); err == nil {
				m.id, err = strconv.ParseUint(string(n), 10, 64)
			}
		case "result":
			m.result, err = l.RawValue("")
		case "params":
			m.params, err = l.RawValue("")
		case "error":
			m.errValue, err = l.RawValue("")
		default:
			err = l.SkipValue("")
		}
		return err
	})
	if err == nil {
		err = l.End()
	}
	return m, err == nil
}

// errPipeClosed is the cause when the browser's connection has ended.
var errPipeClosed = errors.New("the DevTools pipe is closed")

// dial opens the virtual connection of session ("" for the browser
// itself) as an rpcc.Conn.
func (p *devtoolsPipe) dial(ctx context.Context, session string) (*rpcc.Conn, error) {
	return rpcc.DialContext(ctx, session,
		rpcc.WithDialer(func(_ context.Context, id string) (io.ReadWriteCloser, error) {
			c, err := p.open(id)
			if err != nil {
				// Not a nil *pipeConn in an interface, which rpcc would
				// take for a connection to close.
				return nil, err
			}
			return c, nil
		}),
		rpcc.WithCodec(func(rw io.ReadWriter) rpcc.Codec { return rw.(*pipeConn) }))
}

func (p *devtoolsPipe) open(session string) (*pipeConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errPipeClosed
	}
	if _, dup := p.conns[session]; dup {
		return nil, errors.New("a connection to this session is already open")
	}
	c := &pipeConn{p: p, session: session, wake: make(chan struct{}, 1), detached: make(chan struct{})}
	p.conns[session] = c
	pipeConns.Add(1)
	return c, nil
}

// write sends one message to the browser.
func (p *devtoolsPipe) write(msg []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err := p.w.Write(msg)
	return err
}

// pipeConn is one session's virtual connection. rpcc reads and writes it
// only through its Codec methods; the byte-stream methods exist because
// rpcc's dialer must return an io.ReadWriteCloser, and refuse.
type pipeConn struct {
	p       *devtoolsPipe
	session string

	mu     sync.Mutex
	queue  []wireMessage
	closed bool
	wake   chan struct{} // holds a token when queue or closed changed
	// detached is closed once the browser has said the session ended
	// (its target closed or went away): a command sent before that and
	// still unanswered gets no reply.
	detached   chan struct{}
	detachOnce sync.Once
	// raw holds the calls made through invokeRaw that await their reply,
	// by request id.
	raw map[uint64]*rawCall
}

// markDetached records that the browser ended the session.
func (c *pipeConn) markDetached() {
	c.detachOnce.Do(func() { close(c.detached) })
}

// detachedSignal is closed once the browser has ended session; nil when no
// connection to session is open.
func (p *devtoolsPipe) detachedSignal(session string) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.conns[session]; c != nil {
		return c.detached
	}
	return nil
}

// detachedSession is the session a Target.detachedFromTarget event's
// params name, "" when they name none.
func detachedSession(params []byte) string {
	var ev struct {
		SessionID string `json:"sessionId"`
	}
	if json.Unmarshal(params, &ev) != nil {
		return ""
	}
	return ev.SessionID
}

// push queues a message for the session's reader.
func (c *pipeConn) push(m wireMessage) {
	c.mu.Lock()
	if !c.closed {
		c.queue = append(c.queue, m)
	}
	c.mu.Unlock()
	c.signal()
}

func (c *pipeConn) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// end marks the connection closed: what it had not read yet is dropped,
// its reader gets io.EOF and its writes fail.
func (c *pipeConn) end() {
	c.mu.Lock()
	was := c.closed
	c.closed = true
	c.queue = nil
	c.raw = nil
	c.mu.Unlock()
	if !was {
		pipeConns.Add(-1)
	}
	c.signal()
}

// ReadResponse hands rpcc the session's next message, in arrival order.
// rpcc calls it from one goroutine only, so one wake token is enough. The
// reply to a call made through invokeRaw goes to that call, and rpcc is
// handed a null result to decode in its place.
func (c *pipeConn) ReadResponse(r *rpcc.Response) error {
	for {
		c.mu.Lock()
		if len(c.queue) > 0 {
			m := c.queue[0]
			c.queue[0] = wireMessage{}
			c.queue = c.queue[1:]
			var call *rawCall
			if m.method == "" {
				if call = c.raw[m.id]; call != nil {
					delete(c.raw, m.id)
				}
			}
			c.mu.Unlock()
			r.ID, r.Method, r.Result, r.Args, r.Error = m.id, m.method, m.result, m.params, nil
			if m.errValue != nil && string(m.errValue) != "null" {
				r.Error = &rpcc.ResponseError{}
				if err := json.Unmarshal(m.errValue, r.Error); err != nil {
					return err
				}
			}
			if call != nil && r.Error == nil && m.result != nil {
				call.set(m.result)
				r.Result = jsonNull
			}
			return nil
		}
		closed := c.closed
		c.mu.Unlock()
		if closed {
			return io.EOF
		}
		<-c.wake
	}
}

// jsonNull is what rpcc decodes in place of a reply that went to its call.
var jsonNull = json.RawMessage("null")

// wireRequest is rpcc's Request with the session it is for.
type wireRequest struct {
	ID        uint64 `json:"id"`
	Method    string `json:"method"`
	Params    any    `json:"params,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
}

// WriteRequest sends a command of the session. Ids are rpcc's, counted per
// connection: the browser keeps the calls of each session apart, and its
// replies carry the session, so two sessions may use the same id.
func (c *pipeConn) WriteRequest(r *rpcc.Request) error {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return errPipeClosed
	}
	params := r.Args
	if call, ok := params.(*rawCall); ok {
		params = call.args
		c.mu.Lock()
		if c.raw == nil {
			c.raw = map[uint64]*rawCall{}
		}
		c.raw[r.ID] = call
		c.mu.Unlock()
	}
	msg, err := json.Marshal(wireRequest{ID: r.ID, Method: r.Method, Params: params, SessionID: c.session})
	if err == nil {
		err = c.p.write(append(msg, 0))
	}
	if err != nil {
		c.mu.Lock()
		delete(c.raw, r.ID)
		c.mu.Unlock()
	}
	return err
}

// Close takes the session's connection off the pipe; messages that still
// arrive for it are dropped. The session itself ends when its target is
// closed.
func (c *pipeConn) Close() error {
	c.p.mu.Lock()
	if c.p.conns[c.session] == c {
		delete(c.p.conns, c.session)
	}
	c.p.mu.Unlock()
	c.end()
	return nil
}

func (c *pipeConn) Read([]byte) (int, error)  { return 0, errors.ErrUnsupported }
func (c *pipeConn) Write([]byte) (int, error) { return 0, errors.ErrUnsupported }

// rawCall is a call whose reply's result is wanted as the bytes the browser
// wrote, not decoded: a capture or a walker's tables, megabytes that the
// next reader (capture's decoder) walks with jsonlex anyway. Made by
// invokeRaw.
type rawCall struct {
	args any

	mu     sync.Mutex
	result []byte
	got    bool
}

func (c *rawCall) set(b []byte) {
	c.mu.Lock()
	c.result, c.got = b, true
	c.mu.Unlock()
}

// MarshalJSON writes the call's arguments: a connection that does not know
// rawCall sends them as they are, and invokeRaw then reads the result rpcc
// decoded.
func (c *rawCall) MarshalJSON() ([]byte, error) { return json.Marshal(c.args) }

// invokeRaw calls method with args on conn and returns the reply's result
// as the browser wrote it. Over the pipe (pipeConn) the bytes are handed
// over as read; over any other connection rpcc decodes them into a raw
// message, which is the same bytes.
func invokeRaw(ctx context.Context, conn *rpcc.Conn, method string, args any) (json.RawMessage, error) {
	call := &rawCall{args: args}
	var decoded json.RawMessage
	if err := rpcc.Invoke(ctx, method, call, &decoded, conn); err != nil {
		return nil, err
	}
	call.mu.Lock()
	defer call.mu.Unlock()
	if call.got {
		return call.result, nil
	}
	return decoded, nil
}
