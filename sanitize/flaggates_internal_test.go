package sanitize

import (
	"regexp/syntax"
	"testing"
	"unicode"
)

// A pattern that needs its word before the first '.' of its window
// (needsUntilByte('.'), D1228) must have an expression that cannot match
// a '.': then a match, which holds one of the needed words, ends before
// the window's first '.', and the word with it, so the gate turns away
// only windows the expression would. The expression is read as the
// regexp package parses it (every literal, class and wildcard), and the
// pattern must not be read again across a carrier's lines, whose marks
// the window holds but the expression does not see.
func TestNeedsUntilDotOnlyWhereNoMatchHoldsADot(t *testing.T) {
	gated := 0
	for i, p := range flagRules().patterns {
		if p.needsUntil != '.' {
			continue
		}
		gated++
		re, err := syntax.Parse(p.re.expr, syntax.Perl)
		if err != nil {
			t.Fatalf("pattern %d of %s: %v", i, p.rule, err)
		}
		if canConsume(re, '.') {
			t.Errorf("pattern %d of %s needs its word before a '.', but its expression can match one: %s", i, p.rule, p.re.expr)
		}
		if p.carried {
			t.Errorf("pattern %d of %s needs its word before a '.' and is read across carriers", i, p.rule)
		}
		if len(p.needs)+len(p.needSubs) == 0 {
			t.Errorf("pattern %d of %s stops its needed words at a '.' but needs none", i, p.rule)
		}
	}
	if gated == 0 {
		t.Fatal("no pattern needs its word before a '.': the test reads nothing")
	}
}

// canConsume reports whether re can match the character c somewhere.
func canConsume(re *syntax.Regexp, c rune) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == c {
				return true
			}
			for f := unicode.SimpleFold(r); re.Flags&syntax.FoldCase != 0 && f != r; f = unicode.SimpleFold(f) {
				if f == c {
					return true
				}
			}
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= c && c <= re.Rune[i+1] {
				return true
			}
		}
	case syntax.OpAnyChar:
		return true
	case syntax.OpAnyCharNotNL:
		return c != '\n'
	}
	for _, sub := range re.Sub {
		if canConsume(sub, c) {
			return true
		}
	}
	return false
}
