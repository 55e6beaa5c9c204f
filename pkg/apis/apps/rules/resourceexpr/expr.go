// Package resourceexpr parses and evaluates the arithmetic of a SidecarSet
// resourcesPolicy (resourcesExpr.limits/requests.cpu|memory): numbers, percentages,
// Kubernetes quantities, one variable (cpu or memory, the aggregated value of the
// pod's target containers), + - * /, parentheses, min() and max().
//
// Every value is a float64 in the resource's base unit (cores, bytes): "50m" is 0.05,
// "100Mi" is 104857600, "50%" is 0.5, and a bare number is taken in the base unit, as
// OpenKruise does. Parsing happens once at validation and again at injection; the
// tree is small, so no caching is needed.
package resourceexpr

import (
	"fmt"
	"math"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Expr is a parsed expression.
type Expr struct {
	root node
	src  string
}

// String returns the source the expression was parsed from.
func (e *Expr) String() string { return e.src }

// Eval computes the expression with the variable bound to value.
func (e *Expr) Eval(value float64) (float64, error) {
	v, err := e.root.eval(value)
	if err != nil {
		return 0, fmt.Errorf("evaluating %q: %w", e.src, err)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("evaluating %q: result is not a finite number", e.src)
	}
	return v, nil
}

// MaxLength is the longest expression, in bytes, Parse accepts. Real policies are a
// few dozen bytes; the cap keeps a client from making the server lex megabytes.
const MaxLength = 1024

// MaxDepth is how deeply Parse lets parentheses, min()/max() calls and unary minus
// nest. The parser recurses once per level, so without a cap a long "((((" would
// grow the goroutine stack until the process dies.
const MaxDepth = 32

// Parse parses src, whose only allowed variable is variable ("cpu" or "memory").
func Parse(src, variable string) (*Expr, error) {
	if len(src) > MaxLength {
		return nil, fmt.Errorf("expression is %d bytes long, more than the %d allowed", len(src), MaxLength)
	}
	p := &parser{src: src, variable: variable}
	if err := p.lex(); err != nil {
		return nil, err
	}
	root, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, fmt.Errorf("unexpected %q at offset %d", p.toks[p.pos].text, p.toks[p.pos].at)
	}
	return &Expr{root: root, src: src}, nil
}

type node interface {
	eval(variable float64) (float64, error)
}

type constant float64

func (c constant) eval(float64) (float64, error) { return float64(c), nil }

type variableRef struct{}

func (variableRef) eval(v float64) (float64, error) { return v, nil }

type negate struct{ x node }

func (n negate) eval(v float64) (float64, error) {
	x, err := n.x.eval(v)
	return -x, err
}

type binary struct {
	op   byte
	l, r node
}

func (b binary) eval(v float64) (float64, error) {
	l, err := b.l.eval(v)
	if err != nil {
		return 0, err
	}
	r, err := b.r.eval(v)
	if err != nil {
		return 0, err
	}
	switch b.op {
	case '+':
		return l + r, nil
	case '-':
		return l - r, nil
	case '*':
		return l * r, nil
	default:
		if r == 0 {
			return 0, fmt.Errorf("division by zero")
		}
		return l / r, nil
	}
}

type call struct {
	max  bool
	args []node
}

func (c call) eval(v float64) (float64, error) {
	var out float64
	for i, a := range c.args {
		x, err := a.eval(v)
		if err != nil {
			return 0, err
		}
		if i == 0 || (c.max && x > out) || (!c.max && x < out) {
			out = x
		}
	}
	return out, nil
}

type token struct {
	kind byte // 'n' number/quantity, 'i' identifier, or the operator/paren itself
	text string
	at   int
}

type parser struct {
	src      string
	variable string
	toks     []token
	pos      int
	depth    int // current nesting of parentheses, calls and unary minus
}

// enter descends one nesting level, failing past MaxDepth; the caller defers leave.
func (p *parser) enter(at int) error {
	p.depth++
	if p.depth > MaxDepth {
		return fmt.Errorf("expression nests more than %d levels deep at offset %d", MaxDepth, at)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// lex splits src into tokens. A number runs on into its unit suffix ("100Mi",
// "1.5e3", "50m") and an optional "%", so quantities are one token.
//
// A sign belongs to the number only as a decimal exponent, which Kubernetes
// quantities write as "e" or "E" right after the digits, then an optional sign, then
// digits: "1E+3" and "1e-3" are one token each, while in "2E+3" read the other way
// "E" would be the exa suffix. So "2E + 3" (with a space, or "2E" followed by
// anything but a digit) is exa plus three, as resource.ParseQuantity would read it.
func (p *parser) lex() error {
	s := p.src
	for i := 0; i < len(s); {
		c := rune(s[i])
		switch {
		case unicode.IsSpace(c):
			i++
		case strings.ContainsRune("+-*/(),", c):
			p.toks = append(p.toks, token{kind: s[i], text: s[i : i+1], at: i})
			i++
		case unicode.IsDigit(c) || c == '.':
			j := i
			for j < len(s) && (unicode.IsDigit(rune(s[j])) || s[j] == '.' || unicode.IsLetter(rune(s[j])) ||
				exponentSign(s, i, j)) {
				j++
			}
			if j < len(s) && s[j] == '%' {
				j++
			}
			p.toks = append(p.toks, token{kind: 'n', text: s[i:j], at: i})
			i = j
		case unicode.IsLetter(c):
			j := i
			for j < len(s) && (unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j]))) {
				j++
			}
			p.toks = append(p.toks, token{kind: 'i', text: s[i:j], at: i})
			i = j
		default:
			return fmt.Errorf("unexpected character %q at offset %d", c, i)
		}
	}
	if len(p.toks) == 0 {
		return fmt.Errorf("empty expression")
	}
	return nil
}

// exponentSign reports whether s[j], inside the number that starts at s[i], is the
// sign of a decimal exponent: it follows an "e"/"E" that directly follows the
// number's digits, and a digit follows it.
func exponentSign(s string, i, j int) bool {
	if s[j] != '+' && s[j] != '-' || j+1 >= len(s) || !unicode.IsDigit(rune(s[j+1])) {
		return false
	}
	e := j - 1
	if e <= i || s[e] != 'e' && s[e] != 'E' {
		return false
	}
	return strings.Trim(s[i:e], "0123456789.") == ""
}

func (p *parser) peek() (token, bool) {
	if p.pos < len(p.toks) {
		return p.toks[p.pos], true
	}
	return token{}, false
}

// expr = term { ("+"|"-") term }
func (p *parser) expr() (node, error) {
	l, err := p.term()
	if err != nil {
		return nil, err
	}
	for t, ok := p.peek(); ok && (t.kind == '+' || t.kind == '-'); t, ok = p.peek() {
		p.pos++
		r, err := p.term()
		if err != nil {
			return nil, err
		}
		l = binary{op: t.kind, l: l, r: r}
	}
	return l, nil
}

// term = unary { ("*"|"/") unary }
func (p *parser) term() (node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for t, ok := p.peek(); ok && (t.kind == '*' || t.kind == '/'); t, ok = p.peek() {
		p.pos++
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = binary{op: t.kind, l: l, r: r}
	}
	return l, nil
}

// unary = "-" unary | primary
func (p *parser) unary() (node, error) {
	if t, ok := p.peek(); ok && t.kind == '-' {
		p.pos++
		if err := p.enter(t.at); err != nil {
			return nil, err
		}
		defer p.leave()
		x, err := p.unary()
		return negate{x}, err
	}
	return p.primary()
}

// primary = number | variable | ("min"|"max") "(" expr {"," expr} ")" | "(" expr ")"
func (p *parser) primary() (node, error) {
	t, ok := p.peek()
	if !ok {
		return nil, fmt.Errorf("unexpected end of expression")
	}
	p.pos++
	switch t.kind {
	case 'n':
		v, err := parseNumber(t.text)
		if err != nil {
			return nil, fmt.Errorf("at offset %d: %w", t.at, err)
		}
		return constant(v), nil
	case '(':
		if err := p.enter(t.at); err != nil {
			return nil, err
		}
		defer p.leave()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		return x, p.expect(')')
	case 'i':
		switch t.text {
		case p.variable:
			return variableRef{}, nil
		case "min", "max":
			return p.call(t)
		}
		return nil, fmt.Errorf("unknown name %q at offset %d (the only variable here is %q)", t.text, t.at, p.variable)
	}
	return nil, fmt.Errorf("unexpected %q at offset %d", t.text, t.at)
}

func (p *parser) call(name token) (node, error) {
	if err := p.expect('('); err != nil {
		return nil, err
	}
	if err := p.enter(name.at); err != nil {
		return nil, err
	}
	defer p.leave()
	c := call{max: name.text == "max"}
	for {
		a, err := p.expr()
		if err != nil {
			return nil, err
		}
		c.args = append(c.args, a)
		t, ok := p.peek()
		if ok && t.kind == ',' {
			p.pos++
			continue
		}
		if err := p.expect(')'); err != nil {
			return nil, err
		}
		return c, nil
	}
}

func (p *parser) expect(kind byte) error {
	t, ok := p.peek()
	if !ok {
		return fmt.Errorf("expected %q at end of expression", kind)
	}
	if t.kind != kind {
		return fmt.Errorf("expected %q at offset %d, found %q", kind, t.at, t.text)
	}
	p.pos++
	return nil
}

// parseNumber reads a plain number, a percentage or a Kubernetes quantity.
func parseNumber(text string) (float64, error) {
	if pct, ok := strings.CutSuffix(text, "%"); ok {
		q, err := resource.ParseQuantity(pct)
		if err != nil || strings.ContainsAny(pct, "KMGTPEkmi") {
			return 0, fmt.Errorf("invalid percentage %q", text)
		}
		return q.AsApproximateFloat64() / 100, nil
	}
	q, err := resource.ParseQuantity(text)
	if err != nil {
		return 0, fmt.Errorf("invalid number or quantity %q", text)
	}
	return q.AsApproximateFloat64(), nil
}
