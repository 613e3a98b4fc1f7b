package text

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// The kernel's OOM killer writes a dump before it kills (mm/oom_kill.c, dump_header): first
// "<task> invoked oom-killer: gfp_mask=…, order=…, oom_score_adj=…", then the call trace, the
// memory it saw, the tasks, and last the verdict, "Out of memory: Killed process …" for the
// node's memory or "Memory cgroup out of memory: Killed process …" for a cgroup's limit, which
// the catalogue reads. A paste cut before the verdict still says which it was: a memory
// cgroup's OOM is reached from the charge of a page to the cgroup (mem_cgroup_out_of_memory in
// the trace, "memory: usage …, limit …", CONSTRAINT_MEMCG), the node's from the page allocator
// itself (__alloc_pages_slowpath, __alloc_pages_may_oom), with the node's memory shown
// ("Mem-Info:", printed only for it) and CONSTRAINT_NONE. Such a dump, the node's, whose
// verdict the paste lost, is read as the node's OOM, its evidence the "invoked oom-killer" line.

// oomDump is one dump being read: its first line, and what its lines said so far.
type oomDump struct {
	ln      line
	msg     string // the "invoked oom-killer" line, from its task's name
	node    bool   // a sign of the node's OOM
	cgroup  bool   // a sign of a memory cgroup's
	verdict bool   // the kernel's verdict line: the catalogue reads it
	lines   int
}

// maxOOMDumpLines is how many lines after its first a dump is read for: a dump with its task
// list runs to hundreds of lines; its trace and signs come in the first few dozen.
const maxOOMDumpLines = 400

// maxOOMDumps bounds the dumps one input keeps.
const maxOOMDumps = 100

// invokedOOM is what opens a dump.
const invokedOOM = " invoked oom-killer: "

// noteOOM reads one text line for the kernel's OOM dumps.
func (s *scanState) noteOOM(ln line) {
	t := ln.text
	if i := strings.Index(t, invokedOOM); i >= 0 && strings.Contains(t[i:], "gfp_mask=") {
		if len(s.oomDumps) >= maxOOMDumps {
			return
		}
		// The task's name ends at the dmesg or syslog prefix before it: "[ 3690.4] StreamTrans
		// #72 invoked …", "kernel: java invoked …".
		start := max(strings.LastIndex(t[:i], "] "), strings.LastIndex(t[:i], ": "))
		if start >= 0 {
			start += 2
		} else {
			start = 0
		}
		s.oomDumps = append(s.oomDumps, oomDump{ln: ln, msg: strings.TrimSpace(t[start:])})
		return
	}
	if len(s.oomDumps) == 0 {
		return
	}
	d := &s.oomDumps[len(s.oomDumps)-1]
	if d.verdict || d.lines >= maxOOMDumpLines {
		return
	}
	d.lines++
	switch {
	case strings.Contains(t, "Killed process") || strings.Contains(t, "Kill process"):
		d.verdict = true
	case strings.Contains(t, "mem_cgroup_out_of_memory") || strings.Contains(t, "try_charge") ||
		strings.Contains(t, "CONSTRAINT_MEMCG") || strings.Contains(t, "memory: usage ") ||
		strings.Contains(t, "Memory cgroup"):
		d.cgroup = true
	case strings.Contains(t, "__alloc_pages_slowpath") || strings.Contains(t, "__alloc_pages_may_oom") ||
		strings.Contains(t, "CONSTRAINT_NONE") || strings.HasSuffix(strings.TrimSpace(t), "Mem-Info:"):
		d.node = true
	}
}

// emitOOMDumps emits, for each dump of the node's OOM whose verdict the paste lost, the node's
// OOM as the kernel began to say it: the "invoked oom-killer" line, under the reason the
// kernel's verdict is read with (OOMKilling), on the host its log line names, if any.
func (p *parser) emitOOMDumps() error {
	dumps := p.scan.oomDumps
	p.scan.oomDumps = nil
	for _, d := range dumps {
		if !d.node || d.cgroup || d.verdict {
			continue
		}
		ev := &corev1.Event{Type: corev1.EventTypeWarning, Reason: "OOMKilling", Message: d.msg,
			Source: corev1.EventSource{Component: "kernel", Host: lineHost(d.ln.text, "kernel")}}
		if !d.ln.at.IsZero() {
			ev.FirstTimestamp.Time, ev.LastTimestamp.Time = d.ln.at, d.ln.at
		}
		src := p.source(d.ln)
		src.Loose = true
		if err := p.emitScanned(ev, d.ln, src); err != nil {
			return err
		}
	}
	return nil
}
