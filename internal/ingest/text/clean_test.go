package text

import "testing"

func TestClean(t *testing.T) {
	tests := []struct {
		in   string
		want string
		kind lineKind
	}{
		{"> minecraft  3m26s  Warning", "minecraft  3m26s  Warning", kindText},
		{">     State:  Waiting", "    State:  Waiting", kindText},
		{"> > nested", "nested", kindText},
		{"```", "", kindSep},
		{"```text", "", kindSep},
		{"$ kubectl get pods", "", kindSep},
		{"sre@k8s-controller-01:~$ kubectl describe pod x ", "", kindSep},
		{"[root@master ~]# kubectl get ev", "", kindSep},
		{"# kubectl get events", "", kindSep},
		{"» kubectl get pods", "", kindSep},
		{"PS> kubectl get pods", "", kindSep},
		{`PS C:\Users\me> kubectl get pods`, "", kindSep},
		{"- CrashLoopBackOff everywhere", "CrashLoopBackOff everywhere", kindText},
		{"      -conf", "      -conf", kindText},
		{"| NAME | READY |", "NAME   READY", kindText},
		{"|---|:---:|", "", kindSkip},
		{"a\tb", "a       b", kindText},
		{"   \r", "", kindBlank},
		{"CPU was at 100% today", "CPU was at 100% today", kindText},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, kind := clean(tt.in)
			if got != tt.want || kind != tt.kind {
				t.Errorf("clean(%q) = %q, %d; want %q, %d", tt.in, got, kind, tt.want, tt.kind)
			}
		})
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"events header", "$ kubectl get events\nLAST SEEN   TYPE   REASON   OBJECT   MESSAGE\n", true},
		{"pods header", "NAME   READY   STATUS   RESTARTS   AGE\n", true},
		{"describe", "Name:         web-1\nNamespace:    prod\n", true},
		{"events section", "Events:\n  Type  Reason  Age  From  Message\n", true},
		{"headerless rows", "default  3m  Warning  BackOff  pod/x  Back-off\n", true},
		{"loose phrase", "It said 0/3 nodes are available: 3 Insufficient cpu.\n", true},
		{"json", `{"kind":"Pod","status":{"message":"The node was low on resource: memory. "}}`, false},
		{"yaml", "apiVersion: v1\nkind: Event\nmessage: 'Liveness probe failed'\n", false},
		{"prose", "hello\nworld\n", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sniff([]byte(tt.in)); got != tt.want {
				t.Errorf("Sniff = %v, want %v", got, tt.want)
			}
		})
	}
}
