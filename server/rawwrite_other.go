//go:build !linux

package server

import "net"

// rawWriter is Linux's (rawwrite_linux.go); elsewhere a connection writes
// as the net package does.
type rawWriter struct{}

func rawWriterOf(net.Conn) *rawWriter { return nil }

func (*rawWriter) write([]byte) (int, error) { panic("server: no raw writes here") }
