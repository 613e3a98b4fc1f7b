// Package k8stest runs a real kube-apiserver and etcd on loopback for integration tests.
//
// Start builds the two binaries from the Go module proxy the first time (a few minutes, see
// Binaries), then starts a fresh etcd + kube-apiserver in the test's temporary folder in about
// 2 to 3 seconds, on free loopback ports, and stops them when the test ends. Clients authenticate
// with a static bearer token whose user is in system:masters, so RBAC allows everything.
//
// The API server runs alone, with no controllers, scheduler or kubelet: nothing changes objects by
// itself, so tests write every status and event themselves (UpdateStatus after Create, since
// create resets status). The ServiceAccount admission plugin is disabled (there is no token
// controller to create the "default" service account). Namespaces stay Terminating forever when
// deleted (use fresh names instead), and pods bound to a node that are not terminal need
// GracePeriodSeconds 0 to be deleted. See /work/shared/K8S-TEST-CLUSTER.md.
package k8stest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/rootline-dev/rootline/internal/testenv"
)

// Cluster is a running etcd + kube-apiserver on loopback.
type Cluster struct {
	Kubeconfig string       // path of a kubeconfig (context "local") for kubectl and client-go
	Config     *rest.Config // client config for the admin user
	Dir        string       // work dir (logs: etcd.log, apiserver.log)

	apiserver, etcd *process
	stopOnce        sync.Once
	log             func(string, ...any)
}

// StartOptions tune the stack started by StartWith. The zero value is what Start uses.
type StartOptions struct {
	// EventTTL is kube-apiserver's --event-ttl, how long etcd keeps events; 0 keeps the
	// default (1 h).
	EventTTL time.Duration
	// APIServerArgs are extra kube-apiserver flags, appended after the defaults (a repeated
	// flag wins), e.g. "--feature-gates=...".
	APIServerArgs []string
	// ReadyTimeout bounds the wait for /readyz; 0 means 2 minutes.
	ReadyTimeout time.Duration
}

// Timeouts.
const (
	defaultReadyTimeout = 2 * time.Minute
	// stopTimeout is how long Stop waits after SIGTERM before SIGKILL.
	stopTimeout = 15 * time.Second
	// buildMargin is kept before the test's deadline, so that a slow build fails with a message
	// instead of the test binary panicking.
	buildMargin = 30 * time.Second
)

// Start builds the binaries when absent, starts a fresh stack in t.TempDir() on free loopback
// ports, waits until /readyz answers, and stops it (SIGTERM then SIGKILL after a timeout) in
// t.Cleanup. When the stack cannot be had (no go toolchain, build fails, the API server does not
// start...), it calls t.Skip with the reason, unless the environment variable CI is non-empty:
// then t.Fatal. With -short it skips.
func Start(t testing.TB) *Cluster {
	t.Helper()
	return StartWith(t, StartOptions{})
}

// StartWith is Start with options.
func StartWith(t testing.TB, opts StartOptions) *Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("k8stest: -short: skipping a test that needs kube-apiserver and etcd")
	}
	ctx := t.Context()
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, ok := d.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, deadline.Add(-buildMargin))
			defer cancel()
		}
	}
	apiserver, etcd, err := Binaries(ctx, t.Logf)
	if err != nil {
		unavailable(t, err)
	}
	c, err := start(ctx, t.TempDir(), apiserver, etcd, opts, t.Logf)
	if err != nil {
		unavailable(t, err)
	}
	t.Cleanup(c.Stop)
	return c
}

// Kubectl returns the path of a kubectl of kube-apiserver's version, built with it into the
// cache folder (see Binaries), for tests that drive a Cluster as people do. When it cannot be
// had the test is skipped, or failed on CI; with -short it skips.
func Kubectl(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("k8stest: -short: skipping a test that needs kubectl")
	}
	if _, _, err := Binaries(t.Context(), t.Logf); err != nil {
		testenv.Missing(t, "k8stest: no kubectl: %v", err)
	}
	dir, err := CacheDir()
	if err != nil {
		testenv.Missing(t, "k8stest: no kubectl: %v", err)
	}
	return filepath.Join(dir, kubectlName)
}

// unavailable ends the test when the stack cannot be had: skipped, or failed on CI.
func unavailable(t testing.TB, err error) {
	t.Helper()
	testenv.Missing(t, "k8stest: no kube-apiserver: %v", err)
}

// Stop stops kube-apiserver, then etcd: SIGTERM, then SIGKILL if one has not exited after a
// timeout. It is idempotent; Start also calls it in t.Cleanup. The work dir is left in place.
func (c *Cluster) Stop() {
	c.stopOnce.Do(func() {
		for _, p := range []*process{c.apiserver, c.etcd} {
			if p != nil && p.stop(stopTimeout) {
				c.log("k8stest: %s did not exit within %s of SIGTERM: killed", p.name, stopTimeout)
			}
		}
	})
}

// start starts etcd and kube-apiserver in dir and waits until the API server is ready. It
// retries on new ports when one was taken between choosing it and binding it.
func start(ctx context.Context, dir, apiserver, etcd string, opts StartOptions, log func(string, ...any)) (*Cluster, error) {
	t0 := time.Now()
	token, err := prepare(dir)
	if err != nil {
		return nil, err
	}
	const attempts = 3
	for i := 1; ; i++ {
		c, err := startOnce(ctx, dir, apiserver, etcd, token, opts, log)
		if err == nil {
			log("k8stest: kube-apiserver ready at %s after %s (work dir %s)", c.Config.Host, time.Since(t0).Round(10*time.Millisecond), dir)
			return c, nil
		}
		if !errors.Is(err, errPortTaken) || i == attempts {
			return nil, err
		}
		log("k8stest: %v; retrying on other ports", err)
	}
}

// errPortTaken marks a start that failed because a chosen port was taken meanwhile.
var errPortTaken = errors.New("a port was taken")

// prepare writes what both processes need into dir: the service-account key pair and the
// static token file. It returns the token.
func prepare(dir string) (token string, err error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return "", fmt.Errorf("k8stest: service-account key: %w", err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return "", fmt.Errorf("k8stest: service-account key: %w", err)
	}
	secret := make([]byte, 16)
	if _, err := rand.Read(secret); err != nil {
		return "", fmt.Errorf("k8stest: token: %w", err)
	}
	token = hex.EncodeToString(secret)
	files := map[string][]byte{
		"sa.key":     pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}),
		"sa.pub":     pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}),
		"tokens.csv": []byte(token + `,admin,admin-uid,"system:masters"` + "\n"),
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o600); err != nil {
			return "", fmt.Errorf("k8stest: write %s: %w", name, err)
		}
	}
	return token, nil
}

// startOnce starts etcd and kube-apiserver on fresh ports and waits for readiness; on failure it
// stops whatever it started.
func startOnce(ctx context.Context, dir, apiserverBin, etcdBin, token string, opts StartOptions, log func(string, ...any)) (_ *Cluster, err error) {
	ports, err := freePorts(3)
	if err != nil {
		return nil, err
	}
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	host := "https://127.0.0.1:" + strconv.Itoa(ports[2])
	for _, d := range []string{"etcd-data", "certs"} { // leftovers of a failed attempt
		if err := os.RemoveAll(filepath.Join(dir, d)); err != nil {
			return nil, fmt.Errorf("k8stest: clean %s: %w", d, err)
		}
	}

	c := &Cluster{Dir: dir, Kubeconfig: filepath.Join(dir, "kubeconfig"), log: log}
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()

	etcdArgs := []string{
		"--name", "local", "--data-dir", filepath.Join(dir, "etcd-data"),
		"--listen-client-urls", etcdURL, "--advertise-client-urls", etcdURL,
		"--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
		"--initial-cluster", "local=" + peerURL,
	}
	if os.Getenv(EnvEtcd) == "" {
		// The data is thrown away with the test: no need to wait for the disk (etcd >= 3.5).
		etcdArgs = append(etcdArgs, "--unsafe-no-fsync")
	}
	if c.etcd, err = startProcess("etcd", etcdBin, etcdArgs, filepath.Join(dir, "etcd.log")); err != nil {
		return nil, err
	}

	apiArgs := []string{
		"--etcd-servers", etcdURL,
		"--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1", "--secure-port", strconv.Itoa(ports[2]),
		"--cert-dir", filepath.Join(dir, "certs"),
		"--token-auth-file", filepath.Join(dir, "tokens.csv"),
		"--authorization-mode", "RBAC",
		"--service-account-issuer", "https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file", filepath.Join(dir, "sa.pub"),
		"--service-account-signing-key-file", filepath.Join(dir, "sa.key"),
		"--service-cluster-ip-range", "10.0.0.0/24",
		"--disable-admission-plugins", "ServiceAccount",
	}
	if opts.EventTTL > 0 {
		apiArgs = append(apiArgs, "--event-ttl", opts.EventTTL.String())
	}
	apiArgs = append(apiArgs, opts.APIServerArgs...)
	if c.apiserver, err = startProcess("kube-apiserver", apiserverBin, apiArgs, filepath.Join(dir, "apiserver.log")); err != nil {
		return nil, err
	}

	timeout := opts.ReadyTimeout
	if timeout <= 0 {
		timeout = defaultReadyTimeout
	}
	if err := c.waitReady(ctx, host, token, timeout); err != nil {
		return nil, err
	}
	c.Config = &rest.Config{
		Host:        host,
		BearerToken: token,
		// Tests create objects in bursts: client-go's default 5 requests/s would slow them down.
		QPS: 200, Burst: 400,
	}
	caFile := filepath.Join(dir, "certs", "apiserver.crt")
	if err := checkCA(ctx, host, caFile); err == nil {
		c.Config.TLSClientConfig.CAFile = caFile
	} else {
		log("k8stest: cannot verify the API server's self-signed certificate (%v); skipping verification", err)
		c.Config.TLSClientConfig.Insecure = true
		caFile = ""
	}
	if err := writeKubeconfig(c.Kubeconfig, host, token, caFile); err != nil {
		return nil, err
	}
	return c, nil
}

// waitReady polls /readyz until it answers 200, a process exits, ctx ends or timeout passes.
// Its errors carry the tail of the log of the process at fault.
func (c *Cluster) waitReady(ctx context.Context, host, token string, timeout time.Duration) error {
	client := &http.Client{
		Timeout:   2 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}, // the certificate is not written yet
	}
	defer client.CloseIdleConnections()
	apiLog := filepath.Join(c.Dir, "apiserver.log")
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	last := "no answer yet"
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("k8stest: waiting for kube-apiserver /readyz (%s): %w\napiserver.log:\n%s", last, ctx.Err(), tailFile(apiLog, 30))
		case <-deadline.C:
			return fmt.Errorf("k8stest: kube-apiserver not ready after %s (%s)\napiserver.log:\n%s", timeout, last, tailFile(apiLog, 30))
		case <-c.etcd.done:
			return c.etcd.exitError()
		case <-c.apiserver.done:
			return c.apiserver.exitError()
		case <-tick.C:
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, host+"/readyz", nil)
		if err != nil {
			return fmt.Errorf("k8stest: readyz request: %w", err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			last = err.Error()
			continue
		}
		_ = resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		last = "/readyz: " + resp.Status
	}
}

// checkCA checks that the API server's certificate verifies against caFile, the self-signed
// chain it wrote into --cert-dir.
func checkCA(ctx context.Context, host, caFile string) error {
	pemCerts, err := os.ReadFile(caFile)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemCerts) {
		return fmt.Errorf("no certificate in %s", caFile)
	}
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, host+"/livez", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// writeKubeconfig writes a kubeconfig with one context, "local", for the admin token. An empty
// caFile skips TLS verification.
func writeKubeconfig(path, host, token, caFile string) error {
	tlsLine := "insecure-skip-tls-verify: true"
	if caFile != "" {
		tlsLine = "certificate-authority: " + strconv.Quote(caFile)
	}
	body := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: %s
    %s
users:
- name: admin
  user:
    token: %s
contexts:
- name: local
  context:
    cluster: local
    user: admin
current-context: local
`, host, tlsLine, token)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		return fmt.Errorf("k8stest: write kubeconfig: %w", err)
	}
	return nil
}

// freePorts returns n distinct free TCP ports on 127.0.0.1, holding all of them open until all
// are chosen. Another process may still take one before it is bound again; start retries then.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("k8stest: free port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// process is a started etcd or kube-apiserver.
type process struct {
	name string
	log  string // path of its log file
	cmd  *exec.Cmd
	done chan struct{} // closed when it has exited
	err  error         // its exit status, once done is closed
}

// startProcess starts bin with args, its output going to logPath.
func startProcess(name, bin string, args []string, logPath string) (*process, error) {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("k8stest: %s log: %w", name, err)
	}
	defer f.Close() // the child has its own descriptor
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	orphanProof(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("k8stest: start %s: %w", name, err)
	}
	p := &process{name: name, log: logPath, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// exitError describes an unexpected exit, with the tail of the log; it wraps errPortTaken when
// the log says a port was in use.
func (p *process) exitError() error {
	logTail := tailFile(p.log, 30)
	err := fmt.Errorf("k8stest: %s exited: %v\n%s:\n%s", p.name, p.err, filepath.Base(p.log), logTail)
	if strings.Contains(logTail, "address already in use") {
		return fmt.Errorf("%w: %w", errPortTaken, err)
	}
	return err
}

// stop sends SIGTERM, waits up to timeout for the exit, then sends SIGKILL and waits. It
// reports whether SIGKILL was needed.
func (p *process) stop(timeout time.Duration) (killed bool) {
	select {
	case <-p.done:
		return false
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		_ = p.cmd.Process.Kill()
		<-p.done
		return false
	}
	select {
	case <-p.done:
		return false
	case <-time.After(timeout):
		_ = p.cmd.Process.Kill()
		<-p.done
		return true
	}
}
