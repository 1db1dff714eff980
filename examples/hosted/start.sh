#!/bin/sh
# Several `domsnap mcp --http` hosts behind one HAProxy (docs/agents.md,
# "Many hosts behind one proxy"). Each host listens on a free loopback port;
# HAProxy listens on PORT and keeps each MCP session on the host that
# answered its initialize, sticking on the Mcp-Session-Id that host answered
# with. A host that stops takes only its own sessions: their requests then
# reach another host, which answers 404 "session not found", and the client
# opens a new session.
#
# Environment:
#   HOSTS         how many hosts (default 2, at most 64)
#   PORT          the proxy's loopback port (default 8931)
#   TOKEN_FILE    the bearer token file every host serves with, or
#   PRINCIPALS    the principals file every host serves with (one of the two)
#   MAX_SESSIONS  each host's --max-sessions (default domsnap's, 4)
#   IDLE_TIMEOUT  each host's --idle-timeout: seconds, or a number with s, m
#                 or h (default 10m); the proxy forgets a session's host two
#                 idle periods after its last request, as the host does
#   STATE_DIR     the hosts' state: host i keeps its artifacts and profiles in
#                 STATE_DIR/host-i (default $XDG_STATE_HOME/domsnap/hosted,
#                 else ~/.local/state/domsnap/hosted)
#   LOG_REQUESTS  1: the proxy logs every request to standard error (its
#                 method and path, the host that answered, the status, the
#                 timings and how the exchange ended; never a header, so
#                 never a token); default 0, only errors and checks
#   DOMSNAP       the domsnap binary (default: domsnap on PATH)
#   HAPROXY       the haproxy binary (default: haproxy on PATH, else
#                 /usr/sbin/haproxy; `make install-browser` installs it)
# Arguments are passed to every host (e.g. --allow-origin https://shop.example).
#
# It prints one line per host, `host <i> <pid> <port>`, then
# `proxy <pid> <port>`, and stays in the foreground; the hosts' and the
# proxy's logs go to standard error, each line prefixed with its source.
# SIGHUP is passed to every host, which reads its token or principals file
# again. SIGTERM or SIGINT stops the proxy and the hosts (they finish or
# cancel their calls in flight, and close their browsers) and removes the
# temporary folder that holds the proxy's configuration; the exit status
# is 0. When the proxy itself exits, everything is stopped and the exit
# status is 1. A host that exits is reported and left out by the proxy's
# health checks; the others go on.
set -eu

fail() {
	echo "start.sh: $*" >&2
	exit 1
}

# A shell cannot trap a signal that was ignored when it started, and nohup
# (or a service manager) may start it so with SIGHUP: the reload would
# never reach the hosts. Such a start begins again with SIGHUP at its
# default (Linux's /proc says what is ignored; coreutils' env resets it).
sigign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "/proc/$$/status" 2>/dev/null || true)
case $sigign in
*[13579bdfBDF])
	if [ -z "${START_SH_HUP_RESET:-}" ] && env --default-signal=HUP true 2>/dev/null; then
		exec env --default-signal=HUP START_SH_HUP_RESET=1 /bin/sh "$0" "$@"
	fi
	echo "start.sh: SIGHUP is ignored and cannot be reset here: hosts will not read their token or principals file again on SIGHUP" >&2
	;;
esac

HOSTS=${HOSTS:-2}
PORT=${PORT:-8931}
DOMSNAP=${DOMSNAP:-domsnap}
case $HOSTS in '' | *[!0-9]*) fail "HOSTS must be a number from 1 to 64, got '$HOSTS'" ;; esac
[ "$HOSTS" -ge 1 ] && [ "$HOSTS" -le 64 ] || fail "HOSTS must be from 1 to 64, got $HOSTS"
case $PORT in '' | *[!0-9]*) fail "PORT must be a port number, got '$PORT'" ;; esac
[ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ] || fail "PORT must be from 1 to 65535, got $PORT"
LOG_REQUESTS=${LOG_REQUESTS:-0}
case $LOG_REQUESTS in 0 | 1) ;; *) fail "LOG_REQUESTS must be 0 or 1, got '$LOG_REQUESTS'" ;; esac

# The callers: the same token or principals file on every host.
if [ -n "${TOKEN_FILE:-}" ] && [ -n "${PRINCIPALS:-}" ]; then
	fail "give TOKEN_FILE or PRINCIPALS, not both"
elif [ -n "${TOKEN_FILE:-}" ]; then
	set -- --token-file "$TOKEN_FILE" "$@"
elif [ -n "${PRINCIPALS:-}" ]; then
	set -- --principals "$PRINCIPALS" "$@"
else
	fail "set TOKEN_FILE (a bearer token file) or PRINCIPALS (a principals file)"
fi

# The idle timeout in seconds: the hosts' and, doubled, the stick table's.
idle=${IDLE_TIMEOUT:-10m}
num=${idle%[smh]}
case $num in '' | *[!0-9]*) fail "IDLE_TIMEOUT must be seconds, or a number with s, m or h, got '$idle'" ;; esac
case $idle in
*m) idle_s=$((num * 60)) ;;
*h) idle_s=$((num * 3600)) ;;
*) idle_s=$((num)) ;;
esac
set -- --idle-timeout "${idle_s}s" "$@"
if [ -n "${MAX_SESSIONS:-}" ]; then
	set -- --max-sessions "$MAX_SESSIONS" "$@"
fi
# An entry of the stick table lives two idle periods and a minute after the
# session's last request: the host ends an idle session after one period and
# forgets it after the second.
expire_s=$((2 * idle_s + 60))

if [ -z "${HAPROXY:-}" ]; then
	HAPROXY=$(command -v haproxy 2>/dev/null || true)
	[ -n "$HAPROXY" ] || [ ! -x /usr/sbin/haproxy ] || HAPROXY=/usr/sbin/haproxy
fi
[ -n "$HAPROXY" ] || fail "haproxy not found: install it (make install-browser, or apt-get install haproxy) or set HAPROXY"
command -v "$DOMSNAP" >/dev/null 2>&1 || fail "domsnap not found: install it (make install) or set DOMSNAP"

state=${STATE_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/domsnap/hosted}

umask 077
# The folder of the proxy's configuration and of the hosts' browsers'
# profiles and temporary files, removed at the end whatever happened to
# them. Its name is short: Chromium's socket path below it must fit 107
# bytes.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/domsnap.XXXXXX")
pids=""      # the hosts'
readers=""   # the log readers'
proxy=""
stopping=0

# stop ends what was started, waiting for it (the hosts drain their calls
# for up to 10 s; past 30 s they are killed), and removes the folder.
stop() {
	[ "$stopping" = 0 ] || return 0
	stopping=1
	trap '' HUP INT TERM
	: >"$tmp/stopping"
	if [ -n "$proxy" ]; then kill -TERM "$proxy" 2>/dev/null || true; fi
	for p in $pids; do kill -TERM "$p" 2>/dev/null || true; done
	# A watchdog kills what is still running after 30 s; it takes its
	# sleep with it when it is stopped first.
	(
		sl=""
		trap 'if [ -n "$sl" ]; then kill "$sl" 2>/dev/null; fi; exit 0' TERM
		sleep 30 &
		sl=$!
		wait "$sl"
		# shellcheck disable=SC2086 # lists of pids, split on purpose
		kill -KILL $proxy $pids 2>/dev/null
	) &
	watchdog=$!
	for p in $proxy $pids $readers; do wait "$p" 2>/dev/null || true; done
	kill -TERM "$watchdog" 2>/dev/null || true
	wait "$watchdog" 2>/dev/null || true
	rm -rf "$tmp"
}
trap 'stop' EXIT
trap 'stop; exit 0' INT TERM
hup=0
trap 'hup=1' HUP

# start_host i starts host i on a free loopback port, its standard error
# read through a FIFO by a reader that prefixes each line and, on the line
# that says where the host listens, hands the port to the script through a
# second FIFO (an empty line when the host exits before it listens).
start_host() {
	i=$1
	shift
	mkdir -p "$state/host-$i"
	mkfifo "$tmp/host-$i.err" "$tmp/host-$i.ready"
	TMPDIR="$tmp" "$DOMSNAP" mcp --http 127.0.0.1:0 --state-dir "$state/host-$i" "$@" 2>"$tmp/host-$i.err" &
	pid=$!
	(
		trap '' HUP INT
		told=0
		while IFS= read -r line; do
			printf 'host %s: %s\n' "$i" "$line" >&2
			if [ "$told" = 0 ]; then
				case $line in
				*"listening on http://127.0.0.1:"*)
					p=${line#*listening on http://127.0.0.1:}
					echo "${p%%/mcp*}" >"$tmp/host-$i.ready"
					told=1
					;;
				esac
			fi
		done <"$tmp/host-$i.err"
		if [ "$told" = 0 ]; then
			echo "" >"$tmp/host-$i.ready"
		elif [ ! -e "$tmp/stopping" ]; then
			echo "start.sh: host $i (pid $pid) has exited; its sessions are lost, the proxy's checks leave it out" >&2
		fi
	) &
	readers="$readers $!"
	pids="$pids $pid"
	read -r port <"$tmp/host-$i.ready"
	[ -n "$port" ] || fail "host $i did not start (its log above says why)"
	ports="${ports:-} $port"
	echo "host $i $pid $port"
}

i=1
while [ "$i" -le "$HOSTS" ]; do
	start_host "$i" "$@"
	i=$((i + 1))
done

# The proxy's configuration. Its standard error says when a host goes down
# or comes up again, and any error; with LOG_REQUESTS=1 also one line per
# request, in HAProxy's HTTP log format, whose termination state (two
# letters after the status and the bytes) says which side ended an
# exchange that failed, and at what stage.
cfg="$tmp/haproxy.cfg"
if [ "$LOG_REQUESTS" = 1 ]; then
	log_global='	log stderr format raw local0 info'
	log_defaults='	log global
	option httplog'
else
	log_global=''
	log_defaults=''
fi
{
	cat <<EOF
global
	maxconn 4096
$log_global
	# Read-only statistics (show stat, show table hosts) for the owner;
	# it is bound after the proxy's port, so its presence says the proxy
	# listens.
	stats socket $tmp/proxy.sock mode 600 level user

defaults
	mode http
$log_defaults
	# A call may wait up to its wait's timeout (at most 300 s) before its
	# answer starts; an event stream may be quiet as long.
	timeout connect 5s
	timeout client 330s
	timeout server 330s
	timeout http-request 10s
	timeout http-keep-alive 30s
	timeout queue 30s
	timeout check 5s
	# A host that refuses the connection (it has stopped, and the checks
	# have not seen it yet) is left for another at once: a session's
	# request then gets that host's 404, a new session opens there.
	retries 2
	option redispatch 1

frontend mcp
	bind 127.0.0.1:$PORT
	# The proxy's own liveness, for what stands in front of it: 200 while a
	# host is up, 503 when none is.
	monitor-uri /healthz
	monitor fail if { nbsrv(hosts) lt 1 }
	# MCP clients send no Origin; a web page does, and a host refuses any
	# but its own, which no request through the proxy can name.
	http-request deny deny_status 403 if { req.hdr(origin) -m found }
	default_backend hosts

backend hosts
	balance leastconn
	# The session's host: stored from the answer that named the session
	# (initialize's), matched on every later request that names it.
	stick-table type string len 64 size 100k expire ${expire_s}s
	stick match req.hdr(mcp-session-id)
	stick store-response res.hdr(mcp-session-id)
	# Each host's Host is its own address: a loopback listener refuses any
	# other (DNS rebinding). The server's name is that address.
	http-send-name-header Host
	option httpchk GET /healthz
	http-check expect status 200
	default-server check inter 2s fall 2 rise 2
EOF
	for port in $ports; do
		printf '\tserver 127.0.0.1:%s 127.0.0.1:%s\n' "$port" "$port"
	done
} >"$cfg"

if ! "$HAPROXY" -q -c -f "$cfg" >"$tmp/check.out" 2>&1; then
	sed 's/^/proxy: /' "$tmp/check.out" >&2
	fail "haproxy refused the configuration"
fi
mkfifo "$tmp/proxy.err"
"$HAPROXY" -db -f "$cfg" 2>"$tmp/proxy.err" &
proxy=$!
(
	trap '' HUP INT
	while IFS= read -r line; do printf 'proxy: %s\n' "$line" >&2; done <"$tmp/proxy.err"
	: >"$tmp/proxy.exited"
) &
readers="$readers $!"

# The proxy listens once its statistics socket is there (it binds it after
# its port); it may also have exited, failing to bind.
n=0
while [ ! -S "$tmp/proxy.sock" ]; do
	[ ! -e "$tmp/proxy.exited" ] || fail "the proxy did not start (its log above says why)"
	[ "$n" -lt 300 ] || fail "the proxy did not listen on 127.0.0.1:$PORT within 30 s"
	sleep 0.1 2>/dev/null || sleep 1
	n=$((n + 1))
done
echo "proxy $proxy $PORT"

# In the foreground until a signal: SIGHUP goes on to every host; the
# proxy's exit ends everything.
while :; do
	wait "$proxy" || true
	if [ "$hup" = 1 ]; then
		hup=0
		for p in $pids; do kill -HUP "$p" 2>/dev/null || true; done
		continue
	fi
	echo "start.sh: the proxy has exited; stopping the hosts" >&2
	exit 1
done
