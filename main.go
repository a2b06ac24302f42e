// Command tapis plays « Yam's ! » and « Vegas » in the terminal, and scores,
// deals and audits their units from the command line.
package main

import (
	"fmt"
	"os"

	"tapis/cli"
)

func main() {
	env := cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	args := os.Args[1:]
	if len(args) > 0 && (args[0] == "yams" || args[0] == "vegas") {
		fmt.Fprintln(os.Stderr, "tapis: the interactive game is not built yet; use tapis score, deal or audit")
		os.Exit(cli.ExitUsage)
	}
	os.Exit(cli.Run(env, args))
}
