package board

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
)

// DefaultPort is the port tapis serve listens on by default, the one a
// join address without a port names.
const DefaultPort = 23234

// Join is how a player joins the stand: the host and port they give ssh.
// The board shows the command players type and a QR code of its URL.
type Join struct {
	Host string // a name or an address, as players type it
	Port int
}

// Command is what players type: ssh -p PORT HOST (ssh HOST on port 22).
func (j Join) Command() string {
	if j.Port == 22 {
		return "ssh " + j.Host
	}
	return fmt.Sprintf("ssh -p %d %s", j.Port, j.Host)
}

// URL is the join address as an ssh:// URL (RFC 3986, an IPv6 address in
// brackets), what the board's QR code holds.
func (j Join) URL() string {
	return "ssh://" + net.JoinHostPort(j.Host, strconv.Itoa(j.Port))
}

// IsZero reports whether no join address is known: the board then draws
// no way to join.
func (j Join) IsZero() bool { return j.Host == "" }

// maxHost bounds a join address's host: a name players type, drawn in a
// QR code a phone reads from afar.
const maxHost = 64

// ParseJoin reads a join address, HOST or HOST:PORT ([ADDR]:PORT for an
// IPv6 address); without a port, port.
func ParseJoin(s string, port int) (Join, error) {
	if s == "" {
		return Join{}, errors.New("empty: want HOST or HOST:PORT")
	}
	host, portText := s, ""
	if h, p, err := net.SplitHostPort(s); err == nil {
		host, portText = h, p
	} else if strings.Count(s, ":") > 1 && !strings.HasPrefix(s, "[") {
		host = s // an IPv6 address without a port
	} else if strings.Contains(s, ":") {
		return Join{}, fmt.Errorf("want HOST or HOST:PORT: %v", err)
	}
	if portText != "" {
		p, err := strconv.Atoi(portText)
		if err != nil || p < 1 || p > 65535 {
			return Join{}, fmt.Errorf("port %q: want 1 to 65535", portText)
		}
		port = p
	}
	if host == "" || len(host) > maxHost {
		return Join{}, fmt.Errorf("host: want 1 to %d characters", maxHost)
	}
	for _, r := range host {
		ok := r == '.' || r == '-' || r == ':' || r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !ok {
			return Join{}, fmt.Errorf("host %q: letters, digits, dots, dashes and colons only", host)
		}
	}
	if strings.Contains(host, ":") && net.ParseIP(host) == nil {
		return Join{}, fmt.Errorf("host %q: a colon only in an IPv6 address", host)
	}
	return Join{Host: host, Port: port}, nil
}

// JoinOf derives the join address from the address a server listens on:
// its port, and its host unless it listens on every address (:23234,
// 0.0.0.0, ::), where the machine's name is what players on the network
// reach (hostname; empty when it fails: the board then shows no way to
// join).
func JoinOf(addr net.Addr, hostname func() (string, error)) Join {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return Join{}
	}
	j := Join{Host: tcp.IP.String(), Port: tcp.Port}
	if tcp.IP == nil || tcp.IP.IsUnspecified() {
		name, err := hostname()
		if err != nil || name == "" {
			return Join{}
		}
		j.Host = name
	}
	if parsed, err := ParseJoin(j.Host, j.Port); err == nil {
		return parsed
	}
	return Join{}
}
