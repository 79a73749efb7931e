// Command credprobe stands in for gatewayd in the boot test, which has no
// gatewayd to start yet: run as gatewayd.service's ExecStart, it reads the
// credential named by its argument through core/secrets, as gatewayd's
// [secrets.mattermost] credential = "..." will, and prints the value's
// SHA-256 (never the value).
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"boxmaker/core/secrets"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: credprobe CREDENTIAL")
		os.Exit(2)
	}
	v, err := secrets.Read("mattermost", secrets.Source{Credential: os.Args[1]}, secrets.ProcessEnv())
	if err != nil {
		fmt.Fprintln(os.Stderr, "credprobe:", err)
		os.Exit(1)
	}
	sum := sha256.Sum256([]byte(v.Reveal()))
	fmt.Printf("credprobe: secret mattermost: %s\n", hex.EncodeToString(sum[:]))
}
