package yaag

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"boxmaker/core/yaag/workspace"
)

func setupWorkspaceCommand() *cli.Command {
	return &cli.Command{
		Name:      "setup-workspace",
		Usage:     "make DIR a Program Directory: write .yaag/types/ with the declarations of @yaag/runtime and typebox",
		ArgsUsage: "DIR",
		Description: "setup-workspace writes .yaag/types/ (the declarations of the @yaag/runtime and\n" +
			"typebox this binary provides) and .yaag/tsconfig.json, which maps the two\n" +
			"modules to them; a tsconfig.json extending it is written only when DIR has none.\n" +
			"Run it again after an upgrade: it replaces .yaag/types/ whole.",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usage(c, "setup-workspace takes one directory")
			}
			dir := c.Args().First()
			if err := workspace.Write(dir); err != nil {
				return err
			}
			fmt.Fprintln(c.App.Writer, string(workspace.TextWritten))
			return nil
		},
	}
}
