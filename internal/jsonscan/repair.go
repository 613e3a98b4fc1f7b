package jsonscan

// Repair closes a JSON value that the input cut short, the way a person finishing the
// paste would: it keeps the value up to the last member or element that was written whole
// (the last ',' outside a string, or the last closing bracket) and closes what is still open.
// ok is false when nothing whole was written, or b does not start an object.
func Repair(b []byte) (out []byte, ok bool) {
	var stack []byte // the closers of what is open, innermost last
	cut, cutDepth := -1, 0
	var closers []byte
	inString, escaped := false, false
	start := -1
	for i, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			if start < 0 {
				if c != '{' {
					return nil, false
				}
				start = i
			}
			if c == '{' {
				stack = append(stack, '}')
			} else {
				stack = append(stack, ']')
			}
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return nil, false // not merely cut: broken
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return b[start : i+1], true // whole after all
			}
			cut, cutDepth = i+1, len(stack)
			closers = append(closers[:0], stack...)
		case ',':
			if len(stack) > 0 {
				cut, cutDepth = i, len(stack)
				closers = append(closers[:0], stack...)
			}
		default:
			if start < 0 && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return nil, false
			}
		}
	}
	if start < 0 || cut < 0 || cutDepth == 0 {
		return nil, false
	}
	out = append([]byte{}, b[start:cut]...)
	for i := len(closers) - 1; i >= 0; i-- {
		out = append(out, closers[i])
	}
	return out, true
}
