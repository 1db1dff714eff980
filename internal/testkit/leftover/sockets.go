package leftover

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Family lists pid and every live process descended from it or in its
// process group: a browser and the helpers it forked, however deep.
func Family(pid int) ([]int, error) {
	if runtime.GOOS != "linux" {
		return nil, errors.New("leftover: reading processes needs /proc (Linux)")
	}
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		return nil, err
	}
	parent := map[int]int{}
	var group []int
	for _, d := range dirs {
		p, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		// The command name, in parentheses, may hold spaces: the fields
		// that follow start after its last ')'. They are state, ppid, pgrp.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgrp, _ := strconv.Atoi(f[2])
		parent[p] = ppid
		if pgrp == pid && p != pid {
			group = append(group, p)
		}
	}
	if _, ok := parent[pid]; !ok {
		return nil, fmt.Errorf("leftover: no process %d", pid)
	}
	in := map[int]bool{pid: true}
	for _, p := range group {
		in[p] = true
	}
	// Add children of members until nothing changes; a process tree is
	// shallow, so this ends after a few rounds.
	for grew := true; grew; {
		grew = false
		for p, pp := range parent {
			if !in[p] && in[pp] {
				in[p] = true
				grew = true
			}
		}
	}
	out := make([]int, 0, len(in))
	for p := range in {
		out = append(out, p)
	}
	return out, nil
}

// ListeningTCP lists the TCP sockets, IPv4 and IPv6, in the listening state
// that any of pids holds open, each as "address:port" in the kernel's hex
// notation. It matches the socket inodes of /proc/net/tcp and tcp6 against
// those of the processes' open files.
func ListeningTCP(pids []int) ([]string, error) {
	if runtime.GOOS != "linux" {
		return nil, errors.New("leftover: reading sockets needs /proc (Linux)")
	}
	listening := map[string]string{} // inode to local address
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		if err := readListening(table, listening); err != nil {
			return nil, err
		}
	}
	var out []string
	for _, pid := range pids {
		fds, err := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "fd"))
		if err != nil {
			continue // the process has gone
		}
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "fd", fd.Name()))
			if err != nil || !strings.HasPrefix(link, "socket:[") {
				continue
			}
			inode := strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")
			if addr, ok := listening[inode]; ok {
				out = append(out, addr)
			}
		}
	}
	return out, nil
}

// tcpListen is the state code of a listening socket in /proc/net/tcp.
const tcpListen = "0A"

func readListening(table string, into map[string]string) error {
	f, err := os.Open(table)
	if os.IsNotExist(err) {
		return nil // no IPv6 in this kernel
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[3] != tcpListen {
			continue
		}
		into[f[9]] = f[1]
	}
	return sc.Err()
}
