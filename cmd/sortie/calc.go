package main

import (
	"fmt"
	"io"
	"strings"

	"sortie/rules/registry"
	"sortie/rules/ruleset"
)

// cmdCalc runs a ruleset's calculator: `sortie calc NAME [--ruleset R] ...`, the default ruleset when
// none is named. The commands come from the ruleset (ruleset.Calculator), found through the registry.
func cmdCalc(args []string, stdout io.Writer) error {
	name, rest, err := splitRuleset(args)
	if err != nil {
		return err
	}
	rs, err := rulesetNamed(name)
	if err != nil {
		return err
	}
	calc, ok := rs.(ruleset.Calculator)
	if !ok || len(calc.CalcCommands()) == 0 {
		return usagef("calc: the %s ruleset has no calculator", rs.Name())
	}
	cmds := calc.CalcCommands()
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	if len(rest) == 0 {
		return usagef("calc: say %s", orList(names))
	}
	for _, c := range cmds {
		if c.Name == rest[0] {
			return c.Run(rest[1:], stdout)
		}
	}
	return usagef("calc: unknown calculation %q (%s)", rest[0], strings.Join(names, ", "))
}

// rulesetNamed is the registry's ruleset of that name, or the default one for "".
func rulesetNamed(name string) (ruleset.Ruleset, error) {
	if name == "" {
		return registry.Default()
	}
	rs, err := registry.Get(name)
	if err != nil {
		return nil, usagef("--ruleset: %v", err)
	}
	return rs, nil
}

// splitRuleset takes --ruleset NAME (or --ruleset=NAME) out of a command's arguments.
func splitRuleset(args []string) (string, []string, error) {
	name := ""
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--ruleset" || a == "-ruleset":
			if i+1 >= len(args) {
				return "", nil, usagef("--ruleset needs a name: %s", strings.Join(registry.Names(), ", "))
			}
			name = args[i+1]
			i++
		case strings.HasPrefix(a, "--ruleset=") || strings.HasPrefix(a, "-ruleset="):
			name = a[strings.IndexByte(a, '=')+1:]
		default:
			rest = append(rest, a)
		}
	}
	return name, rest, nil
}

// toolCommand finds a top-level command a ruleset adds (ruleset.Tools), e.g. `sortie aircraft`.
func toolCommand(name string) (ruleset.Command, bool) {
	for _, n := range registry.Names() {
		rs, err := registry.Get(n)
		if err != nil {
			continue
		}
		if t, ok := rs.(ruleset.Tools); ok {
			for _, c := range t.Commands() {
				if c.Name == name {
					return c, true
				}
			}
		}
	}
	return ruleset.Command{}, false
}

// rulesetHelp lists, per registered ruleset, its calculator and its own commands, for `sortie --help`.
func rulesetHelp() string {
	var b strings.Builder
	def, _ := registry.Default()
	for _, n := range registry.Names() {
		rs, err := registry.Get(n)
		if err != nil {
			fmt.Fprintf(&b, "\nRuleset %s: cannot be used (%v)\n", n, err)
			continue
		}
		title := "Ruleset " + n
		if def != nil && def.Name() == n {
			title += " (the default)"
		}
		fmt.Fprintf(&b, "\n%s:\n", title)
		if c, ok := rs.(ruleset.Calculator); ok {
			for _, cmd := range c.CalcCommands() {
				flag := ""
				if def == nil || def.Name() != n {
					flag = " --ruleset " + n
				}
				fmt.Fprintf(&b, "  %-36s %s\n", "sortie calc "+cmd.Name+flag+" ...", cmd.Synopsis)
			}
		}
		if t, ok := rs.(ruleset.Tools); ok {
			for _, cmd := range t.Commands() {
				fmt.Fprintf(&b, "  %-36s %s\n", "sortie "+cmd.Name+" ...", cmd.Synopsis)
			}
		}
	}
	return b.String()
}

func orList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// splitPositional takes a leading positional argument (one not starting with -) off args.
func splitPositional(args []string) (string, []string) {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return args[0], args[1:]
	}
	return "", args
}
