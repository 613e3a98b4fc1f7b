package phrase

import "testing"

func TestPhrases(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ got, want string }{
		{Clip("a  long\n\tquote that goes on", 12), "a long quot…"},
		{Clip("short", 12), "short"},
		{Parts([]string{"a", "b", "c"}, "; "), "a; b; c"},
		{Parts([]string{"a", "b", "c", "d", "e"}, "; "), "a; b; c; and 2 more"},
		{First([]string{"a", "b", "c"}, 2), "a, b and 1 more"},
		{First([]string{"a", "b"}, 2), "a, b"},
		{Thousands(999), "999"},
		{Thousands(1000), "1,000"},
		{Thousands(1234567), "1,234,567"},
		{Thousands(-20000), "-20,000"},
		{Duration(119), "119 s"},
		{Duration(120), "2 min"},
		{Duration(149), "2 min"},
		{Duration(150), "3 min"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
