package k8stest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// KubernetesVersion is the version of kube-apiserver that Binaries builds. etcd is built at the
// version that Kubernetes itself requires (3.6.4 for 1.34.4).
const KubernetesVersion = "1.34.4"

// Names of the binaries inside the cache folder.
const (
	apiserverName = "kube-apiserver"
	etcdName      = "etcd"
	kubectlName   = "kubectl" // of the same version as kube-apiserver, for the tests that use it (Kubectl)
)

// Environment variables read by Binaries.
const (
	// EnvCache names the cache folder holding kube-apiserver and etcd. Default:
	// $HOME/.cache/rootline/k8s-test/v<KubernetesVersion>.
	EnvCache = "ROOTLINE_K8S_CACHE"
	// EnvEtcd names an etcd binary to use instead of building one, e.g. /usr/bin/etcd from
	// Debian's etcd-server package (3.4.23 works with kube-apiserver 1.34).
	EnvEtcd = "ROOTLINE_K8S_ETCD"
)

// CacheDir returns the folder where Binaries keeps kube-apiserver and etcd: $ROOTLINE_K8S_CACHE
// when set, else $HOME/.cache/rootline/k8s-test/v<KubernetesVersion>.
func CacheDir() (string, error) {
	if d := os.Getenv(EnvCache); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			return "", fmt.Errorf("k8stest: cache folder %s: %w", d, err)
		}
		return abs, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("k8stest: no cache folder (set %s): %w", EnvCache, err)
	}
	return filepath.Join(home, ".cache", "rootline", "k8s-test", "v"+KubernetesVersion), nil
}

// Binaries returns the paths of kube-apiserver and etcd, building them and kubectl (see
// Kubectl) into the cache folder
// (see CacheDir) when absent. A build takes about 3 to 4 minutes with a cold Go build cache; it
// needs the go command and access to the Go module proxy. The binaries are built in a temporary
// folder and renamed into place, so a half-built cache is never used, and a lock file next to
// the cache folder makes concurrent callers (parallel test processes) wait for one build.
// log receives progress messages (t.Logf fits); it may be nil. An etcd named by
// $ROOTLINE_K8S_ETCD is used instead of the built one.
func Binaries(ctx context.Context, log func(string, ...any)) (apiserver, etcd string, err error) {
	if log == nil {
		log = func(string, ...any) {}
	}
	dir, err := CacheDir()
	if err != nil {
		return "", "", err
	}
	apiserver = filepath.Join(dir, apiserverName)
	etcd = filepath.Join(dir, etcdName)
	if override := os.Getenv(EnvEtcd); override != "" {
		if err := checkExecutable(override); err != nil {
			return "", "", fmt.Errorf("k8stest: %s: %w", EnvEtcd, err)
		}
		etcd = override
	}
	if cached(dir, etcd) {
		return apiserver, etcd, nil
	}

	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", "", fmt.Errorf("k8stest: cache folder: %w", err)
	}
	unlock, err := lockFile(ctx, filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".lock"), log)
	if err != nil {
		return "", "", err
	}
	defer unlock()
	if cached(dir, etcd) { // another process built them while we waited
		return apiserver, etcd, nil
	}

	goBin, err := goCommand()
	if err != nil {
		return "", "", err
	}
	log("k8stest: building kube-apiserver and kubectl v%s and etcd into %s (a few minutes with a cold Go build cache)", KubernetesVersion, dir)
	start := time.Now()
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".build-"+filepath.Base(dir)+"-")
	if err != nil {
		return "", "", fmt.Errorf("k8stest: build folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := build(ctx, goBin, tmp, log); err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("k8stest: cache folder: %w", err)
	}
	// The unlocked fast path above wants every file, and each rename is atomic.
	for _, name := range []string{etcdName, kubectlName, apiserverName} {
		if err := os.Rename(filepath.Join(tmp, name), filepath.Join(dir, name)); err != nil {
			return "", "", fmt.Errorf("k8stest: install %s: %w", name, err)
		}
	}
	log("k8stest: built kube-apiserver, kubectl and etcd in %s", time.Since(start).Round(time.Second))
	return apiserver, etcd, nil
}

// cached reports whether the binaries are present: kube-apiserver and kubectl in the cache
// folder dir, and etcd.
func cached(dir, etcd string) bool {
	return checkExecutable(filepath.Join(dir, apiserverName)) == nil && checkExecutable(filepath.Join(dir, kubectlName)) == nil &&
		checkExecutable(etcd) == nil
}

// checkExecutable returns an error unless path is an executable regular file.
func checkExecutable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not an executable file", path)
	}
	return nil
}

// stagingReplace matches the lines of kubernetes' go.mod that point a staging module at its
// folder in the repository, e.g. "k8s.io/api => ./staging/src/k8s.io/api".
var stagingReplace = regexp.MustCompile(`^\s*(?:replace\s+)?(\S+)\s+=>\s+\./staging/src/`)

// build builds kube-apiserver, kubectl and etcd into out with the go command goBin, the way scripts of
// /work/shared/K8S-TEST-CLUSTER.md do: a throwaway module requires k8s.io/kubernetes, replaces
// its staging modules by their published versions (v0.<minor>.<patch>), and builds
// cmd/kube-apiserver and cmd/kubectl; etcd is built at the version kubernetes requires.
func build(ctx context.Context, goBin, out string, log func(string, ...any)) error {
	work := filepath.Join(out, "module")
	if err := os.Mkdir(work, 0o755); err != nil {
		return fmt.Errorf("k8stest: build folder: %w", err)
	}
	run := func(step string, args ...string) ([]byte, error) {
		t0 := time.Now()
		cmd := exec.CommandContext(ctx, goBin, args...)
		cmd.Dir = work
		// A throwaway module: no workspace, and module mode whatever the caller's GOFLAGS say.
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.WaitDelay = 10 * time.Second
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("k8stest: %s (go %s): %w\n%s", step, strings.Join(args, " "), err, tail(stderr.Bytes(), 30))
		}
		log("k8stest: %s: %s", step, time.Since(t0).Round(100*time.Millisecond))
		return stdout.Bytes(), nil
	}

	v := KubernetesVersion
	staging := "v0." + strings.TrimPrefix(v, "1.")
	dl, err := run("download k8s.io/kubernetes", "mod", "download", "-json", "k8s.io/kubernetes@v"+v)
	if err != nil {
		return err
	}
	var info struct{ GoMod, Error string }
	if err := json.Unmarshal(dl, &info); err != nil {
		return fmt.Errorf("k8stest: go mod download output: %w", err)
	}
	if info.Error != "" || info.GoMod == "" {
		return fmt.Errorf("k8stest: download k8s.io/kubernetes@v%s: %s", v, info.Error)
	}
	kubeMod, err := os.ReadFile(info.GoMod)
	if err != nil {
		return fmt.Errorf("k8stest: read kubernetes go.mod: %w", err)
	}
	var mod strings.Builder
	fmt.Fprintf(&mod, "module example.com/k8sbins\n\ngo 1.24.0\n\nrequire k8s.io/kubernetes v%s\n\nreplace (\n", v)
	n := 0
	for sc := bufio.NewScanner(bytes.NewReader(kubeMod)); sc.Scan(); {
		if m := stagingReplace.FindStringSubmatch(sc.Text()); m != nil {
			fmt.Fprintf(&mod, "\t%s => %s %s\n", m[1], m[1], staging)
			n++
		}
	}
	mod.WriteString(")\n")
	if n == 0 {
		return fmt.Errorf("k8stest: no staging replacements in %s", info.GoMod)
	}
	tools := "//go:build tools\n\npackage tools\n\nimport (\n\t_ \"k8s.io/kubernetes/cmd/kube-apiserver\"\n\t_ \"k8s.io/kubernetes/cmd/kubectl\"\n)\n"
	for name, body := range map[string]string{"go.mod": mod.String(), "tools.go": tools} {
		if err := os.WriteFile(filepath.Join(work, name), []byte(body), 0o644); err != nil {
			return fmt.Errorf("k8stest: write %s: %w", name, err)
		}
	}
	if _, err := run("go mod tidy", "mod", "tidy"); err != nil {
		return err
	}
	etcdV, err := run("etcd version", "list", "-m", "-f", "{{.Version}}", "go.etcd.io/etcd/server/v3")
	if err != nil {
		return err
	}
	etcdMod := "go.etcd.io/etcd/server/v3@" + strings.TrimSpace(string(etcdV))
	if _, err := run("go get "+etcdMod, "get", etcdMod); err != nil {
		return err
	}
	minor := strings.Split(v, ".")[1]
	ldflags := strings.Join([]string{
		"-s", "-w",
		"-X", "k8s.io/component-base/version.gitVersion=v" + v,
		"-X", "k8s.io/component-base/version.gitMajor=1",
		"-X", "k8s.io/component-base/version.gitMinor=" + minor,
		"-X", "k8s.io/component-base/version.gitTreeState=clean",
		"-X", "k8s.io/component-base/version.buildDate=1970-01-01T00:00:00Z",
	}, " ")
	apiserver := filepath.Join(out, apiserverName)
	if _, err := run("build kube-apiserver", "build", "-trimpath", "-ldflags", ldflags, "-o", apiserver, "k8s.io/kubernetes/cmd/kube-apiserver"); err != nil {
		return err
	}
	if _, err := run("build kubectl", "build", "-trimpath", "-ldflags", ldflags, "-o", filepath.Join(out, kubectlName), "k8s.io/kubernetes/cmd/kubectl"); err != nil {
		return err
	}
	if _, err := run("build etcd", "build", "-trimpath", "-ldflags", "-s -w", "-o", filepath.Join(out, etcdName), "go.etcd.io/etcd/server/v3"); err != nil {
		return err
	}
	got, err := exec.CommandContext(ctx, apiserver, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(got), "v"+v) {
		return fmt.Errorf("k8stest: built kube-apiserver reports %q (%v), want v%s", strings.TrimSpace(string(got)), err, v)
	}
	return nil
}

// goCommand finds the go command: on $PATH, else in $GOROOT/bin.
func goCommand() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	if root := os.Getenv("GOROOT"); root != "" {
		p := filepath.Join(root, "bin", "go")
		if err := checkExecutable(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("k8stest: the go command is needed to build kube-apiserver: %w", exec.ErrNotFound)
}

// tail returns the last n lines of b.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// tailFile returns the last n lines of the file at path, or a note why it cannot.
func tailFile(path string, n int) string {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "(" + filepath.Base(path) + " does not exist)"
	}
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return tail(b, n)
}
