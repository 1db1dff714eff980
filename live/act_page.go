package live

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"sync/atomic"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/input"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/rpcc"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/capture"
	"github.com/domsnap/domsnap/limits"
)

// actWorld names the isolated world the element checks run in: the page's
// own script cannot see it, replace the functions it calls, or stall it.
const actWorld = "domsnap-act"

// actGroup is the object group of the handles one action resolves,
// released together when the action ends.
const actGroup = "domsnap-act"

// actState is a Page's state for acting: the isolated world of the action
// in progress, and the count of the windows the page opened that were
// closed (popup.go).
type actState struct {
	world  runtime.ExecutionContextID
	popups atomic.Int64
	// submitted: the action's click submitted a form that navigates the
	// tab (disarmClick); a watch opened for an action clears it.
	submitted atomic.Bool
	// guard is what the last click's guard said when it was removed, or
	// why it could not be read: what a test shows when a click's effect
	// is not the one it expects.
	guard atomic.Pointer[guardReport]
	// frame is the frame document the element lies in ("" for the main
	// document) and hops the frame owners around it, innermost first,
	// each resolved in its own document's isolated world; off is where
	// the element's frame's viewport starts on the page (framePlace).
	frame string
	hops  []frameHop
	off   point
	// remote is the session on the element's frame when the browser
	// renders that frame in another process (remoteframes.go), and el
	// the element, whose calls go through it; nil otherwise.
	remote *remoteFrame
	el     elemRef
}

// clientFor is the protocol client that reaches el: the out-of-process
// frame's session for the element acted on in one, the tab's otherwise.
func (p *Page) clientFor(el elemRef) *cdp.Client {
	if p.act.remote != nil && el != "" && el == p.act.el {
		return p.act.remote.client
	}
	return p.client
}

// frameHop is one frame owner around the element acted on: the owner
// element, and where its document's viewport starts on the page.
type frameHop struct {
	owner elemRef
	off   point
}

// The functions run on the element in the isolated world. None returns a
// control's value (armJS reads only its length).
const (
	// factsJS reports what judge needs. Disabled is the page view's rule
	// (:disabled covers the fieldset rule; aria-disabled on the element
	// or an ancestor); checked too (native inputs by their state, the
	// others by aria-checked).
	factsJS = `function() {
  const el = this, f = {connected: !!el.isConnected, tag: "", type: "", autocomplete: "", rendered: false, box: false,
    disabled: false, readonly: false, text: false, checked: "false"};
  if (!f.connected || el.nodeType !== 1) return f;
  f.tag = String(el.localName || "").toLowerCase();
  if (f.tag === "input") f.type = String(el.type || "").toLowerCase();
  f.autocomplete = el.getAttribute("autocomplete") || "";
  f.rendered = el.checkVisibility({visibilityProperty: true});
  for (const r of el.getClientRects()) { if (r.width > 0 && r.height > 0) { f.box = true; break; } }
  f.disabled = el.matches(":disabled") || el.closest('[aria-disabled="true"]') !== null;
  f.readonly = (f.tag === "input" || f.tag === "textarea") && !!el.readOnly;
  f.text = !!el.isContentEditable || f.tag === "textarea" ||
    (f.tag === "input" && ["text", "search", "email", "tel", "url", "password", "number"].includes(f.type));
  if (f.tag === "input" && (f.type === "checkbox" || f.type === "radio")) f.checked = String(!!el.checked);
  else { const a = el.getAttribute("aria-checked"); if (a === "true" || a === "mixed") f.checked = a; }
  return f;
}`
	// labelHelpers say what of a label passes a click on to its control:
	// interactive(e) says e is content a browser does not pass a click on
	// from (a button, a link, a field, and, as the page could make one of
	// anything, an element with a click attribute, a focus order or a
	// widget's role); through(l, e) says e is l or inside it with nothing
	// interactive in between.
	labelHelpers = `
  const widget = /^(button|link|checkbox|radio|switch|textbox|searchbox|combobox|listbox|option|menuitem|menuitemcheckbox|menuitemradio|slider|spinbutton|tab|treeitem|gridcell)$/;
  const interactive = e => {
    const t = String(e.localName || "").toLowerCase();
    if (["button", "select", "textarea", "iframe", "embed", "object", "label", "details", "summary"].includes(t)) return true;
    if (t === "input") return String(e.type || "").toLowerCase() !== "hidden";
    if ((t === "a" || t === "area") && e.hasAttribute("href")) return true;
    if ((t === "audio" || t === "video") && e.hasAttribute("controls")) return true;
    if (e.hasAttribute("onclick") || e.hasAttribute("onmousedown") || e.hasAttribute("onpointerdown") ||
        e.hasAttribute("tabindex") || e.isContentEditable) return true;
    return widget.test(String(e.getAttribute("role") || "").trim().split(/\s+/)[0].toLowerCase());
  };
  const through = (l, e) => { for (; e && e !== l; e = e.parentElement) if (interactive(e)) return false; return e === l; };`
	// hitJS says whether the point hits the element or a descendant, as
	// the element's own tree (document or shadow root) sees it, or a label
	// of the element: a click there activates the control all the same,
	// which is how component libraries draw a checkbox (the native input
	// hidden under a drawn box inside its label). Within the label only
	// the label itself and what a click passes through to it count: a
	// browser leaves the control alone when the click lands on interactive
	// content inside the label (a button, a link, another field), and a
	// page can lay such an element, transparent, over the label's words to
	// take the click (an element with a click attribute, a focus order or
	// a widget's role is taken as one too). A shadow root sees light
	// content slotted into it as its host (the hit is retargeted there), so
	// a hit on the host counts when the point lies on a node assigned to a
	// slot inside the element: a component's button whose words are the
	// page's own, slotted.
	hitJS = `function(x, y) {
  const root = this.getRootNode();
  const h = (root && typeof root.elementFromPoint === "function" ? root : this.ownerDocument).elementFromPoint(x, y);
  if (h === null) return false;
  if (h === this || this.contains(h)) return true;
  ` + labelHelpers + `
  for (const l of this.labels || []) if (l === h || (l.contains(h) && through(l, h))) return true;
  const host = root && root.host;
  if (!host || !(h === host || host.contains(h))) return false;
  const on = (rects) => { for (const r of rects) if (x >= r.left && x < r.right && y >= r.top && y < r.bottom) return true; return false; };
  const slots = this.localName === "slot" ? [this] : [];
  for (const s of this.querySelectorAll("slot")) slots.push(s);
  for (const s of slots) for (const n of s.assignedNodes({flatten: true})) {
    if (n.nodeType === 1 && on(n.getClientRects())) return true;
    if (n.nodeType === 3) { const r = document.createRange(); r.selectNodeContents(n); if (on(r.getClientRects())) return true; }
  }
  return false;
}`
	// pathAnchorJS is pathAnchor(e): the node that stands for e in the path
	// of an event as a window listener of this world sees it, which holds
	// no node of a closed shadow tree: e itself, or the host of the
	// outermost closed shadow root around it (a node beside e in that tree
	// is not told apart from it). Null for null.
	pathAnchorJS = `
  const pathAnchor = e => {
    let anchor = e;
    for (let n = e; n;) {
      const r = n.getRootNode();
      if (!r || !r.host) break;
      if (r.mode === "closed") anchor = r.host;
      n = r.host;
    }
    return anchor;
  };`
	// armClickJS arms, in this world, a guard of the pointer's button
	// events just before a click's press: every trusted press, release or
	// click whose target is neither the element (this) nor inside it, nor
	// in one of its labels with nothing interactive in between, is
	// cancelled and stopped before it reaches its target, and counted. The
	// page's script runs between the hit tests and the events (on a timer,
	// say), and can slide another element under the pointer in that gap;
	// the guard sees the event as the browser aimed it. A window listener
	// of this world sees no node of a closed shadow tree in an event's
	// path, so for an element inside one it looks for the outermost closed
	// root's host. A page's own window listeners registered before the
	// guard still run first: the guard then reports what it saw. After
	// life milliseconds it lets events go.
	armClickJS = `function(life) {
  ` + labelHelpers + pathAnchorJS + `
  const el = this;
  const anchor = pathAnchor(el);
  const labels = [...(el.labels || [])];
  const allowed = e => {
    const path = e.composedPath();
    if (path.includes(anchor)) return true;
    // The target as the label's own tree sees it (retargeted past the
    // shadow trees inside it), as the hit test sees it.
    for (const l of labels) if (path.includes(l) && through(l, path.find(n => n.nodeType === 1 && n.getRootNode() === l.getRootNode()))) return true;
    return false;
  };
  const g = {stopped: 0, until: Date.now() + life,
    kinds: ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "auxclick", "dblclick", "contextmenu"]};
  g.fn = e => {
    if (!e.isTrusted || Date.now() > g.until || allowed(e)) return;
    g.stopped++;
    e.preventDefault();
    e.stopImmediatePropagation();
  };
  for (const k of g.kinds) window.addEventListener(k, g.fn, true);
  // The submissions the click starts, to read after it: whether one went
  // on (no listener cancelled it) is known once its dispatch ended.
  g.submits = [];
  g.sub = e => { if (e.isTrusted) g.submits.push(e); };
  window.addEventListener("submit", g.sub, true);
  globalThis.domsnapClickGuard = g;
  return true;
}`
	// disarmClickJS removes the guard armClickJS set and says how many
	// events it stopped, and whether the click submitted a form that
	// navigates the tab (one no listener cancelled, not a dialog form,
	// aimed at the top window: its own, or the top from a frame): its
	// navigation begins in a task of the page's own, which a busy
	// renderer runs late.
	disarmClickJS = `function() {
  const g = globalThis.domsnapClickGuard;
  delete globalThis.domsnapClickGuard;
  if (!g) return {stopped: 0, submitted: false, armed: false};
  for (const k of g.kinds) window.removeEventListener(k, g.fn, true);
  window.removeEventListener("submit", g.sub, true);
  // The tab's own navigation is the top window's: a form in a frame
  // navigates the frame unless it aims at the top.
  const here = t => t === "_top" || (t === "" || t === "_self") && window.top === window || t === "_parent" && window.parent === window.top;
  const submitted = g.submits.some(e => {
    if (e.defaultPrevented) return false;
    const f = e.target, s = e.submitter;
    const attr = (n, a) => (n && n.hasAttribute(a)) ? n.getAttribute(a) : null;
    const method = (attr(s, "formmethod") ?? attr(f, "method") ?? "").trim().toLowerCase();
    if (method === "dialog") return false;
    const base = document.querySelector("base[target]");
    const target = (attr(s, "formtarget") ?? attr(f, "target") ?? (base ? base.getAttribute("target") : "")).trim().toLowerCase();
    return here(target);
  });
  return {stopped: g.stopped, submitted, armed: true, submits: g.submits.length};
}`
	// connectedJS says whether the element is still in its document.
	connectedJS = `function() { return this.isConnected; }`
	// optionJS finds the first visible option whose text, normalised and
	// bounded as the page view's option summaries are, is the one asked.
	optionJS = `function(want, max) {
  const norm = s => s.replace(/[\t\n\f\r ]+/g, " ").replace(/^ /, "").replace(/ $/, "");
  const cut = s => { if (s.length <= max) return s; let n = max; const c = s.charCodeAt(n - 1); if (c >= 0xD800 && c <= 0xDBFF) n--; return s.slice(0, n); };
  const hidden = e => e.closest('[aria-hidden="true"]') !== null || getComputedStyle(e).display === "none";
  const opts = this.options || [];
  for (let i = 0; i < opts.length; i++) {
    const o = opts[i], g = o.parentElement;
    if (hidden(o) || (g && g.localName === "optgroup" && hidden(g))) continue;
    if (cut(norm(o.textContent || "")) === want) return {index: i, disabled: !!o.disabled};
  }
  return {index: -1, disabled: false};
}`
	// chooseJS makes option i the select's choice, as a person picking it
	// from the list does (the others of a multiple select are let go), and
	// fires input and change.
	chooseJS = `function(i) {
  const o = this.options[i];
  if (!o) return false;
  if (this.multiple) { for (const x of this.options) x.selected = (x === o); } else { this.selectedIndex = i; }
  this.dispatchEvent(new Event("input", {bubbles: true, composed: true}));
  this.dispatchEvent(new Event("change", {bubbles: true}));
  return true;
}`
	// inputHelpers are the checks made in the page just before text or
	// a key is sent, and again as it arrives. secret is elementFacts.secret;
	// focused says the element has the focus of its own tree and each
	// tree around it up to the top document it can see (a shadow host is
	// its root's active element, a frame element its parent's); active is
	// the element a key goes to, found down through open shadow roots and
	// frames of the same origin.
	inputHelpers = `
  const secret = e => !!e && e.nodeType === 1 &&
    ((String(e.localName).toLowerCase() === "input" && String(e.type || "").toLowerCase() === "password") ||
     String(e.getAttribute("autocomplete") || "").toLowerCase().split(/\s+/)
       .some(t => t === "current-password" || t === "new-password" || t === "one-time-code"));
  const focused = e => {
    for (let n = e;;) {
      const root = n.getRootNode();
      if (!root || root.activeElement !== n) return false;
      if (root.host) { n = root.host; continue; }
      const fe = root.defaultView ? root.defaultView.frameElement : null;
      if (!fe) return true;
      n = fe;
    }
  };
  const active = () => {
    let a = document.activeElement;
    for (;;) {
      if (a && a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
      let d = null;
      try { d = a && a.contentDocument; } catch (e) {}
      if (d && d.activeElement) { a = d.activeElement; continue; }
      return a;
    }
  };`
	// armJS runs once the element (this; null for the focused element) has
	// the focus, just before its text or key is sent. For text it first
	// selects the field's whole content, so that inserted text replaces
	// it. It lets the tasks the focus and the selection queued run (a
	// select event, a zero timer), then checks that the element still has
	// the focus and is no password or one-time-code field, so a page that
	// moves the focus or changes the field as it is focused gets nothing.
	// When the checks pass it arms a guard in this world: the first trusted
	// event of kind (beforeinput for text, keydown for a key) is checked
	// again as it arrives, and cancelled and stopped when the page changed
	// things since; disarmJS reads and removes it. A guard left behind by
	// an action that ended early lets events go after life milliseconds.
	armJS = `async function(kind, selectAll, life, selectWait) {
  ` + inputHelpers + pathAnchorJS + `
  const el = this && this.nodeType === 1 ? this : null;
  if (el && selectAll) {
    // The selection's event comes in a task of its own: wait for it (or
    // at most selectWait, when the page stops it on its way), so that its
    // handlers have run before the check.
    let changes = false, done;
    const fired = new Promise(r => { done = r; });
    if (el.isContentEditable) {
      changes = true;
      el.ownerDocument.addEventListener("selectionchange", done, {once: true, capture: true});
      el.ownerDocument.getSelection().selectAllChildren(el);
    } else if (typeof el.select === "function") {
      const n = typeof el.value === "string" ? el.value.length : 0;
      changes = n > 0 && !(el.selectionStart === 0 && el.selectionEnd === n);
      el.addEventListener("select", done, {once: true, capture: true});
      el.select();
    }
    if (changes) await Promise.race([fired, new Promise(r => setTimeout(r, selectWait))]);
    el.removeEventListener("select", done, true);
    el.ownerDocument.removeEventListener("selectionchange", done, true);
  }
  await new Promise(r => setTimeout(r, 0));
  const check = () => el ? (!focused(el) ? "focus" : secret(el) ? "secret" : "") : (secret(active()) ? "secret" : "");
  const bad = check();
  if (bad) return bad;
  const early = globalThis.domsnapEarly;
  const g = {kind, seen: false, bad: "", until: Date.now() + life, early: !!early};
  g.fn = e => {
    if (!e.isTrusted || g.seen) return;
    if (!g.early) window.removeEventListener(kind, g.fn, true);
    if (Date.now() > g.until) return;
    g.seen = true;
    g.bad = check();
    if (g.bad) { e.preventDefault(); e.stopImmediatePropagation(); }
  };
  // landed hears where the input landed (the input event goes to the
  // element the browser put the text in): a page whose own listener
  // moved the focus as the event passed had it put elsewhere, which the
  // guard can no longer cancel but reports.
  const anchor = pathAnchor(el);
  g.landed = e => {
    if (!e.isTrusted || !g.seen || g.bad) return;
    const path = e.composedPath();
    if (el && !path.includes(anchor)) g.bad = secret(path[0]) ? "secret" : "focus";
    else if (secret(el || path[0])) g.bad = "secret";
    g.landedBad = g.bad !== "";
  };
  g.check = check;
  if (early) early.guard = g; else window.addEventListener(kind, g.fn, true);
  globalThis.domsnapGuard = g;
  return "";
}`
	// earlyGuardJS runs in the action's world of every document of a tab
	// as the document starts, before any script of the page's: its window
	// listeners are the first of their events', so a guard armJS arms
	// hears the text or key before any listener of the page's can stop it
	// (it used to miss an event the page stopped first, and the page could
	// change things unseen), and hears where the text landed. On a
	// document that started before the tab was opened, armJS listens
	// itself, after the page's listeners.
	earlyGuardJS = `(() => {
  if (globalThis.domsnapEarly) return;
  const early = globalThis.domsnapEarly = {guard: null};
  const sent = e => { const g = early.guard; if (g && g.kind === e.type) g.fn(e); };
  addEventListener("beforeinput", sent, true);
  addEventListener("keydown", sent, true);
  addEventListener("input", e => { const g = early.guard; if (g) g.landed(e); }, true);
})()`
	// disarmJS removes the guard armJS set and says what it saw: "" when
	// the input arrived at the element as checked, "focus" or "secret" when
	// it did not, and then cancelled says the guard stopped it. A guard
	// that saw no event (the page stopped it before this world's listener,
	// or it went to a frame of another origin) is answered by checking
	// again now.
	disarmJS = `function(kind) {
  const g = globalThis.domsnapGuard;
  delete globalThis.domsnapGuard;
  if (!g) return {bad: "", cancelled: false};
  if (g.early && globalThis.domsnapEarly && globalThis.domsnapEarly.guard === g) globalThis.domsnapEarly.guard = null;
  window.removeEventListener(kind, g.fn, true);
  return g.seen ? {bad: g.bad, cancelled: g.bad !== "" && !g.landedBad} : {bad: g.check(), cancelled: false};
}`
	// viewportJS is the viewport's size in CSS pixels.
	viewportJS = `function() { return [window.innerWidth, window.innerHeight]; }`
)

// resolve implements actor: the node is resolved in a fresh isolated
// world of its own frame (the main frame's, or the frame document's the
// capture said it lies in) and its facts read there. For a node in a
// frame, each frame owner around it is resolved too, in its own
// document's world, for the hit test around the frame (framePlace).
func (p *Page) resolve(ctx context.Context, backendID int64, frame string, inFrame bool) (elemRef, elementFacts, error) {
	var f elementFacts
	world, err := p.actWorld(ctx)
	if err != nil {
		return "", f, err
	}
	p.act.frame, p.act.hops, p.act.off = "", nil, point{}
	client := p.client
	if inFrame {
		if frame == "" {
			return "", f, notActionable(ReasonDetached, "the capture did not say which frame the element lies in")
		}
		if backendID>>capture.RemoteIDShift != 0 {
			// A node of an out-of-process frame: its own process
			// numbers it with the low bits.
			backendID &= 1<<capture.RemoteIDShift - 1
			r, err := p.attachFrame(ctx, frame)
			if err != nil {
				if ctx.Err() == nil {
					return "", f, notActionable(ReasonDetached, "the element's frame is no longer in the page")
				}
				return "", f, err
			}
			p.act.remote, client = r, r.client
		}
		if world, err = p.frameWorldOn(ctx, client, page.FrameID(frame)); err != nil {
			return "", f, err
		}
		p.act.frame = frame
	}
	el, err := p.resolveOn(ctx, client, backendID, world)
	if err != nil {
		return "", f, err
	}
	p.act.el = el
	if inFrame {
		if err := p.frameOwners(ctx, page.FrameID(frame)); err != nil {
			return "", f, err
		}
	}
	if err := p.callOn(ctx, el, factsJS, &f); err != nil {
		return "", f, err
	}
	return el, f, nil
}

// resolveIn resolves a node by its backend id in an isolated world.
func (p *Page) resolveIn(ctx context.Context, backendID int64, world runtime.ExecutionContextID) (elemRef, error) {
	return p.resolveOn(ctx, p.client, backendID, world)
}

// resolveOn is resolveIn through client.
func (p *Page) resolveOn(ctx context.Context, client *cdp.Client, backendID int64, world runtime.ExecutionContextID) (elemRef, error) {
	r, err := client.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().
		SetBackendNodeID(dom.BackendNodeID(backendID)).SetExecutionContextID(world).SetObjectGroup(actGroup))
	if err != nil || r.Object.ObjectID == nil {
		if ctx.Err() != nil {
			return "", callError(ctx, "DOM.resolveNode", err)
		}
		var re *rpcc.ResponseError
		if err == nil || errors.As(err, &re) {
			return "", notActionable(ReasonDetached, "the element's node is no longer in the page")
		}
		return "", callError(ctx, "DOM.resolveNode", err)
	}
	return elemRef(*r.Object.ObjectID), nil
}

// actWorld creates the action's isolated world in the main frame.
func (p *Page) actWorld(ctx context.Context) (runtime.ExecutionContextID, error) {
	tree, err := p.client.Page.GetFrameTree(ctx)
	if err != nil {
		return 0, callError(ctx, "Page.getFrameTree", err)
	}
	w, err := p.client.Page.CreateIsolatedWorld(ctx,
		page.NewCreateIsolatedWorldArgs(tree.FrameTree.Frame.ID).SetWorldName(actWorld))
	if err != nil {
		return 0, callError(ctx, "Page.createIsolatedWorld", err)
	}
	p.act.world = w.ExecutionContextID
	return w.ExecutionContextID, nil
}

// frameWorld creates the action's isolated world in a frame. A frame that
// is gone (it navigated or was removed since the capture) is detached.
func (p *Page) frameWorld(ctx context.Context, frame page.FrameID) (runtime.ExecutionContextID, error) {
	return p.frameWorldOn(ctx, p.client, frame)
}

// frameWorldOn is frameWorld through client.
func (p *Page) frameWorldOn(ctx context.Context, client *cdp.Client, frame page.FrameID) (runtime.ExecutionContextID, error) {
	w, err := client.Page.CreateIsolatedWorld(ctx, page.NewCreateIsolatedWorldArgs(frame).SetWorldName(actWorld))
	if err != nil {
		var re *rpcc.ResponseError
		if ctx.Err() == nil && errors.As(err, &re) {
			return 0, notActionable(ReasonDetached, "the element's frame is no longer in the page")
		}
		return 0, callError(ctx, "Page.createIsolatedWorld", err)
	}
	return w.ExecutionContextID, nil
}

// frameOwners resolves the frame owners around frame, innermost first,
// each in an isolated world of the document it lies in, up to the main
// frame (at most limits.MaxFrameDepth of them, as the capture read no
// deeper).
func (p *Page) frameOwners(ctx context.Context, frame page.FrameID) error {
	tree, err := p.client.Page.GetFrameTree(ctx)
	if err != nil {
		return callError(ctx, "Page.getFrameTree", err)
	}
	parent := map[page.FrameID]page.FrameID{}
	stack := []page.FrameTree{tree.FrameTree}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range t.ChildFrames {
			parent[c.Frame.ID] = t.Frame.ID
			stack = append(stack, c)
		}
	}
	for f := frame; f != tree.FrameTree.Frame.ID; {
		up, ok := parent[f]
		if !ok && f == frame && p.act.remote != nil {
			// The tab's frame tree may not list a frame another
			// process renders; its owner is then the page's.
			up, ok = tree.FrameTree.Frame.ID, true
		}
		if !ok || len(p.act.hops) >= limits.MaxFrameDepth {
			return notActionable(ReasonDetached, "the element's frame is no longer in the page")
		}
		o, err := p.client.DOM.GetFrameOwner(ctx, dom.NewGetFrameOwnerArgs(f))
		if err != nil {
			var re *rpcc.ResponseError
			if ctx.Err() == nil && errors.As(err, &re) {
				return notActionable(ReasonDetached, "the element's frame is no longer in the page")
			}
			return callError(ctx, "DOM.getFrameOwner", err)
		}
		world := p.act.world
		if up != tree.FrameTree.Frame.ID {
			if world, err = p.frameWorld(ctx, up); err != nil {
				return err
			}
		}
		owner, err := p.resolveIn(ctx, int64(o.BackendNodeID), world)
		if err != nil {
			return err
		}
		p.act.hops = append(p.act.hops, frameHop{owner: owner})
		f = up
	}
	return nil
}

// framePlace finds, once the element is scrolled into view, where each
// frame's viewport starts on the page: the top left corner of its owner's
// content box. The protocol gives a node's boxes in the page's
// coordinates, however deep its frame lies; the page in a frame hit-tests
// in its own.
func (p *Page) framePlace(ctx context.Context) (bool, error) {
	if p.act.frame == "" {
		return true, nil
	}
	for i := range p.act.hops {
		m, err := p.client.DOM.GetBoxModel(ctx, dom.NewGetBoxModelArgs().SetObjectID(runtime.RemoteObjectID(p.act.hops[i].owner)))
		if err != nil {
			if err := boxError(ctx, "DOM.getBoxModel", err); err != nil {
				return false, err
			}
			return false, nil
		}
		if len(m.Model.Content) != 8 {
			return false, nil
		}
		at := point{m.Model.Content[0], m.Model.Content[1]}
		if i == 0 {
			p.act.off = at
		} else {
			p.act.hops[i-1].off = at
		}
	}
	return true, nil
}

// hits says whether the page point at hits el in its own document and,
// for an element in a frame, each frame owner around it in the document
// around that owner: a frame covered by something of its parent is
// obscured there, as a person sees it.
func (p *Page) hits(ctx context.Context, el elemRef, at point) (bool, error) {
	var ok bool
	if err := p.callOn(ctx, el, hitJS, &ok, at.X-p.act.off.X, at.Y-p.act.off.Y); err != nil || !ok {
		return false, err
	}
	for _, h := range p.act.hops {
		if err := p.callOn(ctx, h.owner, hitJS, &ok, at.X-h.off.X, at.Y-h.off.Y); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// callOn calls fn on el (or, for "", in the action's world) with args and
// decodes its JSON result into out. A function that throws is
// capture_failed; its exception text is not quoted, since it may hold page
// content.
func (p *Page) callOn(ctx context.Context, el elemRef, fn string, out any, args ...any) error {
	a := runtime.NewCallFunctionOnArgs(fn).SetReturnByValue(true).SetAwaitPromise(true)
	if el != "" {
		a.SetObjectID(runtime.RemoteObjectID(el))
	} else {
		a.SetExecutionContextID(p.act.world)
	}
	for _, v := range args {
		b, err := json.Marshal(v)
		if err != nil {
			return errcode.Wrap(errcode.CaptureFailed, pkg, "", "encoding an argument", err)
		}
		a.Arguments = append(a.Arguments, runtime.CallArgument{Value: b})
	}
	r, err := p.clientFor(el).Runtime.CallFunctionOn(ctx, a)
	if err != nil {
		if ctx.Err() == nil {
			var re *rpcc.ResponseError
			if errors.As(err, &re) && el != "" {
				// The handle stopped naming a node: its document went.
				return notActionable(ReasonDetached, "the element's node is no longer in the page")
			}
		}
		return callError(ctx, "Runtime.callFunctionOn", err)
	}
	if r.ExceptionDetails != nil {
		return errcode.New(errcode.CaptureFailed, pkg, "", "a function run on the element threw")
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(r.Result.Value, out); err != nil {
		return errcode.New(errcode.CaptureFailed, pkg, "", "a function run on the element answered in an unexpected shape")
	}
	return nil
}

// prepare implements actor.
func (p *Page) prepare(ctx context.Context, a Action, el elemRef) (prepared, error) {
	var pr prepared
	switch a.Kind {
	case ActClick, ActCheck, ActUncheck, ActHover:
		at, ok, err := p.aimAt(ctx, el)
		if err != nil || !ok {
			pr.NoBox = !ok
			return pr, err
		}
		placed, err := p.framePlace(ctx)
		if err != nil || !placed {
			pr.NoBox = !placed
			return pr, err
		}
		if p.act.remote != nil {
			// Another process gives the element's box in its frame's
			// own coordinates.
			at.X, at.Y = at.X+p.act.off.X, at.Y+p.act.off.Y
		}
		pr.At = at
		if pr.Hits, err = p.hits(ctx, el, at); err != nil {
			return pr, err
		}
	case ActSelect:
		var r struct {
			Index    int  `json:"index"`
			Disabled bool `json:"disabled"`
		}
		if err := p.callOn(ctx, el, optionJS, &r, a.Option, limits.CellUnits); err != nil {
			return pr, err
		}
		pr.Option, pr.OptionDisabled = r.Index, r.Disabled
	case ActScroll:
		if p.act.world == 0 {
			if _, err := p.actWorld(ctx); err != nil {
				return pr, err
			}
		}
		var vp [2]float64
		if err := p.callOn(ctx, "", viewportJS, &vp); err != nil {
			return pr, err
		}
		pr.At, pr.DeltaY = point{vp[0] / 2, vp[1] / 2}, vp[1]
		if el != "" {
			at, ok, err := p.aimAt(ctx, el)
			if err != nil {
				return pr, err
			}
			if ok && p.act.remote != nil {
				if ok, err = p.framePlace(ctx); err != nil {
					return pr, err
				}
				at.X, at.Y = at.X+p.act.off.X, at.Y+p.act.off.Y
			}
			if ok {
				pr.At = point{clamp(at.X, vp[0]), clamp(at.Y, vp[1])}
			}
		}
	case ActBack:
		h, err := p.client.Page.GetNavigationHistory(ctx)
		if err != nil {
			return pr, callError(ctx, "Page.getNavigationHistory", err)
		}
		if i := h.CurrentIndex - 1; i >= 0 && i < len(h.Entries) {
			pr.Entry, pr.HasEntry = h.Entries[i].ID, true
		}
	}
	return pr, nil
}

// clamp keeps a coordinate inside a viewport of size n.
func clamp(v, n float64) float64 {
	return math.Max(0, math.Min(v, n-1))
}

// aimAt scrolls el into view and returns the centre of its first box
// (DOM.getContentQuads); false when it has none.
func (p *Page) aimAt(ctx context.Context, el elemRef) (point, bool, error) {
	obj := runtime.RemoteObjectID(el)
	if err := p.clientFor(el).DOM.ScrollIntoViewIfNeeded(ctx, dom.NewScrollIntoViewIfNeededArgs().SetObjectID(obj)); err != nil {
		return point{}, false, boxError(ctx, "DOM.scrollIntoViewIfNeeded", err)
	}
	q, err := p.clientFor(el).DOM.GetContentQuads(ctx, dom.NewGetContentQuadsArgs().SetObjectID(obj))
	if err != nil {
		return point{}, false, boxError(ctx, "DOM.getContentQuads", err)
	}
	for _, quad := range q.Quads {
		if len(quad) != 8 || quadArea(quad) < 1 {
			continue
		}
		return point{(quad[0] + quad[2] + quad[4] + quad[6]) / 4, (quad[1] + quad[3] + quad[5] + quad[7]) / 4}, true, nil
	}
	return point{}, false, nil
}

// boxError: the protocol's refusal to lay out a node ("Node does not
// have a layout object") means no box, not a failure.
func boxError(ctx context.Context, what string, err error) error {
	var re *rpcc.ResponseError
	if ctx.Err() == nil && errors.As(err, &re) {
		return nil
	}
	return callError(ctx, what, err)
}

// quadArea is the area of a quad given as four corners.
func quadArea(q dom.Quad) float64 {
	a := 0.0
	for i := 0; i < 4; i++ {
		j := (i + 1) % 4
		a += q[2*i]*q[2*j+1] - q[2*j]*q[2*i+1]
	}
	return math.Abs(a) / 2
}

// send implements actor: the input itself (sendInput). An input that
// closes its own tab (a button calling window.close()) ends the tab's
// session while the call that carried it may be unanswered, and a command
// in flight when a session ends gets no reply: waiting for it would spend
// the action's whole deadline. So the calls end when the session does, and
// an input the tab's closing cut short counts as sent: the tab's closing
// is its effect, which the session sees at its next step (prunePages). A
// refusal made before anything went out stays a refusal.
func (p *Page) send(ctx context.Context, a Action, el elemRef, pr prepared) error {
	if p.detached == nil {
		return p.sendInput(ctx, a, el, pr)
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-p.detached:
			cancel()
		case <-sctx.Done():
		}
	}()
	err := p.sendInput(sctx, a, el, pr)
	var u *unsent
	if err != nil && ctx.Err() == nil && !errors.As(err, &u) && p.tabDetached() {
		return nil
	}
	return err
}

// tabDetached says whether the browser has ended the tab's session.
func (p *Page) tabDetached() bool {
	select {
	case <-p.detached:
		return true
	default:
		return false
	}
}

// sendInput sends the action's input. Text is never part of an error: the
// call that carries it is reported without its cause.
func (p *Page) sendInput(ctx context.Context, a Action, el elemRef, pr prepared) error {
	switch a.Kind {
	case ActClick, ActCheck, ActUncheck:
		return p.click(ctx, el, pr.At)
	case ActHover:
		return p.hover(ctx, el, pr.At)
	case ActUpload:
		return p.upload(ctx, el, a.File)
	case ActType:
		if err := p.focus(ctx, el); err != nil {
			return err
		}
		if err := p.arm(ctx, el, guardText, true); err != nil {
			return err
		}
		if a.Text == "" {
			k, _ := keyByName("Delete")
			if err := p.key(ctx, k); err != nil {
				return err
			}
			return p.disarm(ctx, el, guardText)
		}
		if err := p.client.Input.InsertText(ctx, input.NewInsertTextArgs(a.Text)); err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return cancelled(cerr)
			}
			return errcode.New(errcode.CaptureFailed, pkg, "", "Input.insertText failed")
		}
		return p.disarm(ctx, el, guardText)
	case ActSelect:
		if err := p.focus(ctx, el); err != nil {
			return err
		}
		var ok bool
		if err := p.callOn(ctx, el, chooseJS, &ok, pr.Option); err != nil {
			return err
		}
		if !ok {
			return notActionable(ReasonNoSuchOption, "the option went away before it was chosen")
		}
		return nil
	case ActPress:
		if el != "" {
			if err := p.focus(ctx, el); err != nil {
				return err
			}
		} else if p.act.world == 0 {
			if _, err := p.actWorld(ctx); err != nil {
				return err
			}
		}
		if err := p.arm(ctx, el, guardKey, false); err != nil {
			return err
		}
		k, _ := keyByName(a.Key)
		if err := p.key(ctx, k); err != nil {
			return err
		}
		return p.disarm(ctx, el, guardKey)
	case ActScroll:
		ev := input.NewDispatchMouseEventArgs("mouseWheel", pr.At.X, pr.At.Y).SetDeltaX(0).SetDeltaY(pr.DeltaY)
		if err := p.client.Input.DispatchMouseEvent(ctx, ev); err != nil {
			return callError(ctx, "Input.dispatchMouseEvent", err)
		}
		return nil
	case ActBack:
		if err := p.client.Page.NavigateToHistoryEntry(ctx, page.NewNavigateToHistoryEntryArgs(pr.Entry)); err != nil {
			return callError(ctx, "Page.navigateToHistoryEntry", err)
		}
		return nil
	}
	return errcode.New(errcode.InvalidRequest, pkg, "/action", "unknown action")
}

// The events a guard armed by arm checks as they arrive: the one that
// inserts text (and deletes it, for an empty text), and a key going down.
const (
	guardText = "beforeinput"
	guardKey  = "keydown"
)

// selectEventWait bounds how long arm waits for the event of the
// selection it made, which a page may stop before it arrives.
const selectEventWait = 100 * time.Millisecond

// arm checks in the page, once el (or, for "", whatever has the focus) is
// focused, that the text or key about to be sent still reaches it and
// that it is no password or one-time-code field, and arms the guard that
// checks again as the input arrives (armJS). A page that moved the focus
// or changed the field as it was focused is refused with nothing sent:
// the error is unsent.
func (p *Page) arm(ctx context.Context, el elemRef, kind string, selectAll bool) error {
	life := guardLife(ctx)
	var bad string
	if err := p.callOn(ctx, el, armJS, &bad, kind, selectAll, life.Milliseconds(), selectEventWait.Milliseconds()); err != nil {
		return err
	}
	if err := inputRefused(bad, false, false); err != nil {
		return &unsent{err}
	}
	return nil
}

// disarm removes the guard arm set and reports an input it cancelled, or
// one that went elsewhere: the input was sent, but not to the element. A
// key that made the page navigate (Enter in a form) took the guard away
// with its document: there is nothing left to ask, and nothing to report.
func (p *Page) disarm(ctx context.Context, el elemRef, kind string) error {
	var r struct {
		Bad       string `json:"bad"`
		Cancelled bool   `json:"cancelled"`
	}
	if err := p.callOn(ctx, el, disarmJS, &r, kind); err != nil {
		var re *rpcc.ResponseError
		if ctx.Err() == nil && (Reason(err) == ReasonDetached || errors.As(err, &re)) {
			return nil
		}
		return err
	}
	return inputRefused(r.Bad, true, r.Cancelled)
}

// inputRefused is the error for what the page-side checks found: the
// focus moved off the element (obscured: another element would get the
// input), or the field is a password or one-time-code field; sent says
// the input went out, cancelled that the guard stopped it on its way.
func inputRefused(bad string, sent, cancelled bool) error {
	var what, fate string
	switch bad {
	case "":
		return nil
	case "secret":
		if !sent {
			return humanOnly()
		}
		what = "the page made the field a password or one-time-code field"
	default:
		if !sent {
			return notActionable(ReasonObscured, "the page moved the focus off the element as it was focused; nothing was sent")
		}
		what = "the page moved the focus off the element"
	}
	if cancelled {
		fate = " as the input arrived; the input was cancelled there"
	} else {
		fate = " while the input was sent; it may have reached another element"
	}
	if bad == "secret" {
		return errcode.New(errcode.HumanOnly, pkg, "", what+fate)
	}
	return notActionable(ReasonObscured, what+fate)
}

func (p *Page) focus(ctx context.Context, el elemRef) error {
	if err := p.clientFor(el).DOM.Focus(ctx, dom.NewFocusArgs().SetObjectID(runtime.RemoteObjectID(el))); err != nil {
		return callError(ctx, "DOM.focus", err)
	}
	return nil
}

// click presses and releases the left button at at, as one click, on el
// alone: the point must hit el just before the press, and again between
// the press and the release, since the page's script runs in between (on
// a timer, or answering the press itself) and may put another element
// under the pointer. No separate mouse move goes first: it would be one
// more event the page could answer, before the press, by moving an
// element there (the press itself moves the pointer, and the browser
// hit-tests it once, before the handlers its boundary events run). A miss
// before the press sends nothing (unsent); a miss after it sends no
// release, so no click follows, and is reported.
func (p *Page) click(ctx context.Context, el elemRef, at point) error {
	hits := func() (bool, error) { return p.hits(ctx, el, at) }
	ok, err := hits()
	if err != nil {
		return err
	}
	if !ok {
		return &unsent{notActionable(ReasonObscured, "another element came over the centre of the element before the press; nothing was sent")}
	}
	life := guardLife(ctx)
	var armed bool
	if err := p.callOn(ctx, el, armClickJS, &armed, life.Milliseconds()); err != nil {
		return &unsent{err}
	}
	err = p.pressRelease(ctx, el, at, hits)
	if derr := p.disarmClick(ctx, el); err == nil {
		err = derr
	}
	return err
}

// guardLife is how long a guard armed in the page may stop events: until
// ctx's deadline, or limits.LiveTimeout without one, so a guard an action
// left behind lets events go by itself.
func guardLife(ctx context.Context) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d)
	}
	return limits.LiveTimeout
}

// beforeRelease, when a test sets it, runs between a click's last hit
// test and its release: the gap a page's timer can slide an element into.
var beforeRelease func()

// guardReport is what a click's guard says as it is removed: the events it
// stopped, whether a submission that navigates the tab went on, whether it
// was still armed and how many submissions it saw; or, in Unread, why it
// could not be read.
type guardReport struct {
	Stopped   int   `json:"stopped"`
	Submitted bool  `json:"submitted"`
	Armed     bool  `json:"armed"`
	Submits   int   `json:"submits"`
	Unread    error `json:"-"`
}

// disarmClick removes the guard armClickJS set and reports the events it
// stopped: the page slid another element under the pointer after the
// last hit test, and that element got no press, release or click. A
// click that took the page to another document took the guard with it.
// So did one whose navigation merely began before the guard was read: as
// measured on a loaded machine, the browser then holds the call until the
// next document commits and that document answers it, knowing nothing of
// the old one's world ("Cannot find context"). The wait that follows sees
// that navigation begin by itself; only a submission whose navigation has
// not begun yet needs the guard to say so.
func (p *Page) disarmClick(ctx context.Context, el elemRef) error {
	var guard guardReport
	if err := p.callOn(ctx, el, disarmClickJS, &guard); err != nil {
		p.act.guard.Store(&guardReport{Unread: err})
		var re *rpcc.ResponseError
		if ctx.Err() != nil || Reason(err) == ReasonDetached || errors.As(err, &re) {
			// The click was sent: a guard that cannot be read now (the
			// call's deadline passed while the page was busy with what
			// the click started, as a form posted to a server that never
			// answers keeps it) is not the action's failure; it lets
			// events go at that deadline by itself, and the wait that
			// follows says what the click led to.
			return nil
		}
		return err
	}
	p.act.guard.Store(&guard)
	if guard.Submitted {
		p.act.submitted.Store(true)
	}
	if guard.Stopped > 0 {
		return notActionable(ReasonObscured, "the page put another element under the pointer as the click came; its press, release or click was cancelled there")
	}
	return nil
}

// pressRelease sends the press and, when the point still hits el, the
// release (click).
func (p *Page) pressRelease(ctx context.Context, el elemRef, at point, hits func() (bool, error)) error {
	press := input.NewDispatchMouseEventArgs("mousePressed", at.X, at.Y).SetButton(input.MouseButtonLeft).SetButtons(1).SetClickCount(1)
	if err := p.client.Input.DispatchMouseEvent(ctx, press); err != nil {
		return callError(ctx, "Input.dispatchMouseEvent mousePressed", err)
	}
	switch ok, err := hits(); {
	case Reason(err) == ReasonDetached && ctx.Err() == nil:
		// The press took the page to another document (a link that
		// navigates as the button goes down): the effects say so, and
		// a release would reach the new document.
		return nil
	case err != nil:
		return err
	case !ok:
		var in bool
		if err := p.callOn(ctx, el, connectedJS, &in); err != nil {
			return err
		}
		if !in {
			return notActionable(ReasonDetached, "the page removed the element as the button went down; the button was not released, so no click followed")
		}
		return notActionable(ReasonObscured, "the page put another element under the pointer after the press; the button was not released, so no click followed")
	}
	if beforeRelease != nil {
		beforeRelease()
	}
	release := input.NewDispatchMouseEventArgs("mouseReleased", at.X, at.Y).SetButton(input.MouseButtonLeft).SetButtons(0).SetClickCount(1)
	if err := p.client.Input.DispatchMouseEvent(ctx, release); err != nil {
		return callError(ctx, "Input.dispatchMouseEvent mouseReleased", err)
	}
	return nil
}

// hover moves the pointer to at, over el, and leaves it there, so that
// what the page shows on :hover or mouseover stays shown for the
// observation that follows. The point must hit el just before the move
// (else nothing is sent: unsent, obscured); what the page does once the
// pointer is there is what the action is for, so it is not checked again.
func (p *Page) hover(ctx context.Context, el elemRef, at point) error {
	ok, err := p.hits(ctx, el, at)
	if err != nil {
		return err
	}
	if !ok {
		return &unsent{notActionable(ReasonObscured, "another element came over the centre of the element before the pointer moved; nothing was sent")}
	}
	move := input.NewDispatchMouseEventArgs("mouseMoved", at.X, at.Y).SetButtons(0)
	if err := p.client.Input.DispatchMouseEvent(ctx, move); err != nil {
		return callError(ctx, "Input.dispatchMouseEvent mouseMoved", err)
	}
	return nil
}

// fileInputJS says whether the element is still a file input that takes
// files: connected, enabled.
const fileInputJS = `function() {
  return this.isConnected && String(this.localName).toLowerCase() === "input" &&
    String(this.type || "").toLowerCase() === "file" && !this.matches(":disabled");
}`

// upload gives the file input el the file at path, as choosing it in the
// file chooser does (the input and change events fire). The element is
// asked again just before: a page that changed it since the checks (into
// a password field, say) gets nothing, and the protocol itself refuses a
// node that is no file input by the time it arrives. Errors never carry
// the protocol's words, which could name the file.
func (p *Page) upload(ctx context.Context, el elemRef, path string) error {
	var ok bool
	if err := p.callOn(ctx, el, fileInputJS, &ok); err != nil {
		return err
	}
	if !ok {
		return &unsent{notActionable(ReasonWrongRole, "the element stopped being an enabled file input before the file was given; nothing was sent")}
	}
	args := dom.NewSetFileInputFilesArgs([]string{path}).SetObjectID(runtime.RemoteObjectID(el))
	if err := p.clientFor(el).DOM.SetFileInputFiles(ctx, args); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return cancelled(cerr)
		}
		return notActionable(ReasonWrongRole, "the browser did not take the file for the element (it may have stopped being a file input)")
	}
	return nil
}

// key presses k once: the key goes down, types its text (if any) and comes
// up, as a keyboard sends it.
func (p *Page) key(ctx context.Context, k keyDef) error {
	evs := []*input.DispatchKeyEventArgs{keyEvent("rawKeyDown", k)}
	if k.text != "" {
		evs = append(evs, keyEvent("char", k).SetText(k.text).SetUnmodifiedText(k.text))
	}
	evs = append(evs, keyEvent("keyUp", k))
	for _, ev := range evs {
		if err := p.client.Input.DispatchKeyEvent(ctx, ev); err != nil {
			return callError(ctx, "Input.dispatchKeyEvent "+ev.Type, err)
		}
	}
	return nil
}

func keyEvent(typ string, k keyDef) *input.DispatchKeyEventArgs {
	return input.NewDispatchKeyEventArgs(typ).SetKey(k.key).SetCode(k.code).
		SetWindowsVirtualKeyCode(k.vk).SetNativeVirtualKeyCode(k.vk)
}

// releaseAct implements actor: the handles of the action are released
// within what is left of ctx, at most closeCallTimeout. When ctx is over
// (a renderer that stopped answering) they are left to go with their
// document: a release would only wait for that renderer again.
func (p *Page) releaseAct(ctx context.Context) {
	if p.act.world == 0 {
		return
	}
	p.act.world = 0
	p.act.frame, p.act.hops, p.act.off, p.act.el = "", nil, point{}, ""
	if r := p.act.remote; r != nil {
		p.act.remote = nil
		defer r.close()
	}
	if ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, closeCallTimeout)
	defer cancel()
	_ = p.client.Runtime.ReleaseObjectGroup(ctx, runtime.NewReleaseObjectGroupArgs(actGroup))
}

// popupsClosed implements actor.
func (p *Page) popupsClosed() int64 { return p.act.popups.Load() }

// stopLoading implements actor: it stops a main-frame navigation that has
// not committed, as the browser's stop button does: the tab stays on the
// document it showed, and answers calls that reach that document again. An
// action whose outcome is uncertain with Pending set leaves such a
// navigation behind, which Session.Act stops before it observes. The
// request may still have reached its server.
func (p *Page) stopLoading(ctx context.Context) error {
	if err := p.client.Page.StopLoading(ctx); err != nil {
		return callError(ctx, "Page.stopLoading", err)
	}
	return nil
}
