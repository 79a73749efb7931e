// Command peerprobe connects to the unix socket named by its argument,
// sends one request as every Boxmaker client does ({"kind":"ping"} on one
// line) and prints the answer line. The runner's tests run it inside a
// tool's container to see what a daemon's peer check makes of a tool.
package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: peerprobe SOCKET")
		os.Exit(2)
	}
	c, err := net.Dial("unix", os.Args[1])
	if err != nil {
		fmt.Println("dial:", err)
		os.Exit(1)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintln(c, `{"kind":"ping"}`)
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		fmt.Println("read:", err)
		os.Exit(1)
	}
	fmt.Print(line)
}
