// The bench measures the hall at real time: N lightweight fake clocks
// (devtools/fakeclock), each with its own MQTT connection, press at random
// (an exponential wait, 10 s on average), against `zeitnot-hall` with its
// embedded broker and with Mosquitto; a live-stream client (as a page)
// measures from each press to its arrival, and checks that none is lost.
// It reports the latency, and the CPU and memory of the hall and of the
// broker, for each number of clocks.
//
//	bin/zeitnot-bench -clocks 100,500,1500
//
// Everything runs on loopback. `make hall-bench` runs it.

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/devtools/sseclient"
	"github.com/zeitnot/zeitnot/hall/web"
	"github.com/zeitnot/zeitnot/internal/subcmd"
	"github.com/zeitnot/zeitnot/protocol"
)

func init() {
	register(command{Name: "bench", Summary: "measure the hall under load: fake clocks at real time against this program's hall, with the embedded broker and Mosquitto", Run: runBench})
}

func runBench(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("bench", stderr)
	self, _ := os.Executable()
	zeitnot := fs.String("hall", self, "the zeitnot-hall program to measure")
	levels := fs.String("clocks", "100,500,1500", "numbers of clocks, one run each")
	brokers := fs.String("brokers", "embedded,mosquitto", "embedded, mosquitto, or both")
	dur := fs.Duration("duration", 60*time.Second, "how long each run presses, after all clocks are connected")
	every := fs.Duration("every", 10*time.Second, "a clock's mean time between presses")
	findBreak := fs.Bool("break", false, "after the levels, add clocks (x1.5) until p99 passes 1 s or clocks cannot connect")
	maxClocks := fs.Int("max", 6000, "with -break: stop at this many clocks")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	raiseFiles()
	fmt.Printf("machine: %d CPUs; load average at start %s\n", numCPU(), loadavg())
	for _, b := range strings.Split(*brokers, ",") {
		var ns []int
		for _, s := range strings.Split(*levels, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				fatal(fmt.Errorf("-clocks: %v", err))
			}
			ns = append(ns, n)
		}
		var last result
		for i := 0; i < len(ns); i++ {
			r, err := runOnce(*zeitnot, b, ns[i], *dur, *every)
			if err != nil {
				fmt.Printf("%-9s %5d clocks: %v\n", b, ns[i], err)
				break
			}
			r.print()
			last = r
			if i == len(ns)-1 && *findBreak && last.p99 <= time.Second && ns[i] < *maxClocks {
				ns = append(ns, min(*maxClocks, ns[i]*3/2))
			}
		}
	}
	fmt.Printf("load average at the end %s\n", loadavg())
	return 0
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}

func numCPU() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return strings.Count(string(b), "\nprocessor") + 1
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func raiseFiles() {
	var l syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l)
	l.Cur = l.Max
	syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
}

func freePort() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// proc samples a process's CPU time and memory from /proc.
type proc struct {
	pid     int
	cpu0    float64
	t0      time.Time
	maxRSS  int64 // kB
	stopped chan struct{}
}

func cpuSeconds(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // USER_HZ
}

func rss(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return n
		}
	}
	return 0
}

func (p *proc) start() {
	p.cpu0, p.t0 = cpuSeconds(p.pid), time.Now()
	p.stopped = make(chan struct{})
	go func() {
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.stopped:
				return
			case <-t.C:
				p.maxRSS = max(p.maxRSS, rss(p.pid))
			}
		}
	}()
}

// cpu is the share of one CPU the process used since start.
func (p *proc) cpu() float64 {
	close(p.stopped)
	p.maxRSS = max(p.maxRSS, rss(p.pid))
	return (cpuSeconds(p.pid) - p.cpu0) / time.Since(p.t0).Seconds() * 100
}

type result struct {
	broker             string
	clocks             int
	presses, lost      int
	p50, p99, max      time.Duration
	hallCPU, brokerCPU float64
	hallRSS, brokerRSS int64
	benchCPU           float64
	streamErr          error
	connectTime        time.Duration
	load               string
}

func (r result) print() {
	b := ""
	if r.broker == "mosquitto" {
		b = fmt.Sprintf(", mosquitto %.0f%% CPU %d MB", r.brokerCPU, r.brokerRSS/1024)
	}
	fmt.Printf("%-9s %5d clocks: %6d presses, %d lost; press to page p50 %v p99 %v max %v; hall %.0f%% CPU, %d MB RSS%s; the fake clocks and page %.0f%% CPU; connected in %v; load %s\n",
		r.broker, r.clocks, r.presses, r.lost, r.p50.Round(time.Millisecond), r.p99.Round(time.Millisecond), r.max.Round(time.Millisecond),
		r.hallCPU, r.hallRSS/1024, b, r.benchCPU, r.connectTime.Round(time.Second), r.load)
	if r.streamErr != nil {
		fmt.Printf("          %v\n", r.streamErr)
	}
}

func startMosquitto(dir string) (*exec.Cmd, string, error) {
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		bin = "/usr/sbin/mosquitto"
	}
	addr := freePort()
	_, port, _ := net.SplitHostPort(addr)
	conf := fmt.Sprintf("listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\nmax_inflight_messages 0\n", port)
	if os.Geteuid() == 0 {
		conf += "user root\n"
	}
	p := filepath.Join(dir, "mosquitto.conf")
	os.WriteFile(p, []byte(conf), 0o600)
	cmd := exec.Command(bin, "-c", p)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	for i := 0; i < 100; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return cmd, addr, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Kill()
	return nil, "", fmt.Errorf("mosquitto does not listen on %s", addr)
}

func runOnce(zeitnot, brokerKind string, n int, dur, every time.Duration) (result, error) {
	r := result{broker: brokerKind, clocks: n}
	dir, err := os.MkdirTemp("", "hall-bench-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	httpAddr, mqttAddr := freePort(), freePort()
	args := []string{"hall", "--http", httpAddr, "--data", filepath.Join(dir, "data"), "--hall", "bench"}
	var mosq *exec.Cmd
	if brokerKind == "mosquitto" {
		var addr string
		mosq, addr, err = startMosquitto(dir)
		if err != nil {
			return r, err
		}
		defer func() { mosq.Process.Signal(syscall.SIGTERM); mosq.Wait() }()
		mqttAddr = addr
		args = append(args, "--broker", "mqtt://"+addr, "--broker-without-acl") // the bench's own anonymous broker on loopback
	} else {
		args = append(args, "--mqtt", mqttAddr, "--mqtts", "off") // the fake clocks connect over plain MQTT, on loopback
	}
	hall := exec.Command(zeitnot, args...)
	logf, _ := os.Create(filepath.Join(dir, "hall.log"))
	hall.Stdout, hall.Stderr = logf, logf
	hall.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := hall.Start(); err != nil {
		return r, err
	}
	defer func() { hall.Process.Signal(syscall.SIGTERM); hall.Wait() }()
	for i := 0; ; i++ {
		resp, err := http.Get("http://" + httpAddr + "/api/boards")
		if err == nil {
			resp.Body.Close()
			break
		}
		if i > 200 {
			b, _ := os.ReadFile(filepath.Join(dir, "hall.log"))
			return r, fmt.Errorf("the hall does not answer: %v\n%s", err, b)
		}
		time.Sleep(50 * time.Millisecond)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The page: every board's changes, as they arrive.
	s, err := sseclient.Dial(ctx, "http://"+httpAddr+"/events", 100000)
	if err != nil {
		return r, err
	}
	defer s.Close()
	type key struct {
		board int
		time  int64
		moves int
	}
	var mu sync.Mutex
	pending := map[key]time.Time{} // presses not yet seen: when pressed
	arrived := map[key]time.Time{} // seen before the press was recorded
	var lat []time.Duration
	recvDone := make(chan struct{})
	go func() {
		defer close(recvDone)
		for ev := range s.C {
			if ev.Name != "board" {
				continue
			}
			var v web.View
			if json.Unmarshal([]byte(ev.Data), &v) != nil || v.State == nil {
				continue
			}
			st, err := protocol.ParseStatus(v.State)
			if err != nil {
				continue
			}
			k := key{v.Board, v.Time, st.White.Moves + st.Black.Moves}
			mu.Lock()
			if t, ok := pending[k]; ok {
				lat = append(lat, ev.At.Sub(t))
				delete(pending, k)
			} else if _, ok := arrived[k]; !ok {
				arrived[k] = ev.At
			}
			mu.Unlock()
		}
	}()

	u := &url.URL{Scheme: "mqtt", Host: mqttAddr}
	clocks := make([]*fakeclock.Clock, n)
	t0 := time.Now()
	sem := make(chan struct{}, 32)
	var wg sync.WaitGroup
	var derr error
	var derrMu sync.Mutex
	for i := range clocks {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			dctx, dcancel := context.WithTimeout(ctx, 30*time.Second)
			defer dcancel()
			c, err := fakeclock.Dial(dctx, fakeclock.Opts{Broker: u, Hall: "bench", Board: i + 1, Control: "5400+30"})
			if err != nil {
				derrMu.Lock()
				derr = err
				derrMu.Unlock()
				return
			}
			clocks[i] = c
		})
	}
	wg.Wait()
	defer func() {
		for _, c := range clocks {
			if c != nil {
				go c.Close()
			}
		}
	}()
	if derr != nil {
		return r, fmt.Errorf("connecting %d clocks: %v", n, derr)
	}
	r.connectTime = time.Since(t0)
	time.Sleep(3 * time.Second) // let the first states settle
	hp := &proc{pid: hall.Process.Pid}
	hp.start()
	bench := &proc{pid: os.Getpid()}
	bench.start()
	var bp *proc
	if mosq != nil {
		bp = &proc{pid: mosq.Process.Pid}
		bp.start()
	}
	end := time.Now().Add(dur)
	var pwg sync.WaitGroup
	for i, c := range clocks {
		pwg.Go(func() {
			rnd := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
			for {
				wait := time.Duration(rnd.ExpFloat64() * float64(every))
				if time.Now().Add(wait).After(end) {
					return
				}
				time.Sleep(wait)
				pressed := time.Now()
				held, moves := c.Press()
				k := key{i + 1, held.UnixMilli(), moves}
				mu.Lock()
				r.presses++
				if at, ok := arrived[k]; ok {
					lat = append(lat, at.Sub(pressed))
					delete(arrived, k)
				} else {
					pending[k] = pressed
				}
				mu.Unlock()
			}
		})
	}
	pwg.Wait()
	// What is on its way: wait until every press arrived, 30 s at most.
	for i := 0; i < 300; i++ {
		mu.Lock()
		left := len(pending)
		mu.Unlock()
		if left == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	r.benchCPU = bench.cpu()
	r.hallCPU = hp.cpu()
	r.hallRSS = hp.maxRSS
	if bp != nil {
		r.brokerCPU = bp.cpu()
		r.brokerRSS = bp.maxRSS
	}
	r.load = loadavg()
	mu.Lock()
	r.lost = len(pending)
	l := slices.Clone(lat)
	mu.Unlock()
	slices.Sort(l)
	if len(l) > 0 {
		r.p50 = l[len(l)/2]
		r.p99 = l[(len(l)*99+99)/100-1]
		r.max = l[len(l)-1]
	}
	select {
	case <-recvDone:
		r.streamErr = fmt.Errorf("the live stream ended early: %v", s.Err)
	default:
	}
	return r, nil
}
