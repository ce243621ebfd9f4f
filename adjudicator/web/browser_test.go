package web

// End-to-end tests in a real headless browser: Debian's chromium, driven over the DevTools protocol by
// chromedp, against the archive of a game played by the real adjudicator, served by httptest. They
// step through a replay with the keyboard and the links, with the script and without it, and compare
// screenshots with the golden PNGs in testdata/screenshots (go test -run Browser -update rewrites them;
// look at them first).
//
// Without chromium the tests are skipped, unless SORTIE_BROWSER=required (set by .ci/run after it
// installs chromium), when they fail.

import (
	"bytes"
	"context"
	"flag"
	"image"
	"image/color"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

var update = flag.Bool("update", false, "rewrite the golden screenshots")

// browserPath finds chromium, or skips the test (fails it when SORTIE_BROWSER=required).
func browserPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("SORTIE_BROWSER") == "required" {
		t.Fatal("SORTIE_BROWSER=required but no chromium is installed (apt-get install chromium)")
	}
	t.Skip("no chromium: the browser tests are skipped (SORTIE_BROWSER=required makes that a failure)")
	return ""
}

// browser starts a headless chromium with a fixed window and returns its context; it stops at cleanup.
func browser(t *testing.T, scripts bool) context.Context {
	t.Helper()
	path := browserPath(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.WindowSize(1024, 768), chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("hide-scrollbars", true), chromedp.Flag("force-device-scale-factor", "1"),
		chromedp.Flag("font-render-hinting", "none"), chromedp.Flag("disable-lcd-text", true),
		chromedp.Flag("force-color-profile", "srgb"), chromedp.Flag("lang", "en-GB"),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 4*browserHang) // a hang guard for the whole test, not a bound on its speed
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	steps := []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(1024, 768)}
	if !scripts {
		steps = append(steps, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}))
	}
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// finishedGameServer is the archive of a finished four-turn game, over real HTTP.
func finishedGameServer(t *testing.T) (*testGame, *httptest.Server) {
	t.Helper()
	g := newTestGame(t, "g1", 4)
	g.play("g1", 4)
	srv := httptest.NewServer(g.server(Options{}))
	t.Cleanup(srv.Close)
	return g, srv
}

func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// browserHang is how long a browser test waits for what must happen before it calls the page stuck:
// minutes, since a loaded machine is slow, not wrong.
const browserHang = 3 * time.Minute

// waitPath waits until the page's path is want (the script's step, or a navigation, has happened).
func waitPath(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	deadline := time.Now().Add(browserHang)
	for {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string]("location.pathname"))
		if err == nil && got == want {
			// and the page shown is that page: its heading is in place
			if h, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("main h1") ? document.querySelector("main h1").textContent : ""`)); err == nil && h != "" {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page is at %q, want %q", got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func heading(t *testing.T, ctx context.Context) string {
	t.Helper()
	return strings.TrimSpace(run(t, ctx, chromedp.Text("main h1", chromedp.NodeVisible)))
}

// Stepping through a finished game's turns with the arrow keys and the links: the script swaps the page
// in place (no reload), keeps the history, announces the new page, and each step looks like the page
// loaded directly.
func TestBrowserStepsThroughAReplay(t *testing.T) {
	_, srv := finishedGameServer(t)
	ctx := browser(t, true)
	do(t, ctx, chromedp.Navigate(srv.URL+"/g/g1/round/0"), chromedp.WaitVisible("nav.turns .keys"))
	if h := heading(t, ctx); h != "Channel, August 1940: Opening position" {
		t.Fatalf("heading %q", h)
	}
	screenshot(t, ctx, "round-0")
	// A mark on the window: a reload would wipe it.
	do(t, ctx, chromedp.Evaluate[chromedp.Void]("window.sortieMark = 42; undefined"))
	mark := func() {
		t.Helper()
		if v := run(t, ctx, chromedp.Evaluate[int]("window.sortieMark || 0")); v != 42 {
			t.Error("the page was reloaded instead of stepped")
		}
	}

	do(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	waitPath(t, ctx, "/g/g1/round/1")
	mark()
	if h := heading(t, ctx); h != "Channel, August 1940: Turn 1" {
		t.Errorf("after → the heading is %q", h)
	}
	if title := run(t, ctx, chromedp.Title()); title != "Turn 1 · Channel, August 1940 · Sortie" {
		t.Errorf("after → the title is %q", title)
	}
	if say := run(t, ctx, chromedp.Evaluate[string](`document.getElementById("announce").textContent`)); say != "Channel, August 1940: Turn 1" {
		t.Errorf("screen readers are told %q", say)
	}
	stepped := capture(t, ctx)

	do(t, ctx, chromedp.Click(`nav.turns a[rel="next"]`, chromedp.NodeVisible))
	waitPath(t, ctx, "/g/g1/round/2")
	mark()
	if f := run(t, ctx, chromedp.Evaluate[string](`document.activeElement.getAttribute("rel") || ""`)); f != "next" {
		t.Errorf("after following next, focus is on %q, not the next link", f)
	}
	// One key at a time: a key pressed while the page is still being swapped in is not queued.
	do(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	waitPath(t, ctx, "/g/g1/round/3")
	do(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	waitPath(t, ctx, "/g/g1/round/4")
	do(t, ctx, chromedp.KeyEvent(kb.ArrowRight)) // the last turn: nothing further
	time.Sleep(300 * time.Millisecond)
	waitPath(t, ctx, "/g/g1/round/4")
	do(t, ctx, chromedp.KeyEvent(kb.ArrowLeft))
	waitPath(t, ctx, "/g/g1/round/3")
	mark()
	// The browser's back button goes back through the steps.
	do(t, ctx, chromedp.Evaluate[chromedp.Void]("history.back(); undefined"))
	waitPath(t, ctx, "/g/g1/round/4")
	if h := heading(t, ctx); h != "Channel, August 1940: Turn 4" {
		t.Errorf("after back the heading is %q", h)
	}
	mark()

	// A step looks like the page loaded directly.
	do(t, ctx, chromedp.Navigate(srv.URL+"/g/g1/round/1"), chromedp.WaitVisible("nav.turns .keys"))
	compare(t, "round-1 stepped against loaded", capture(t, ctx), stepped)
	screenshot(t, ctx, "round-1")
}

// A player's reports step the same way, and show only that player's view.
func TestBrowserStepsThroughAPlayersReports(t *testing.T) {
	g, srv := finishedGameServer(t)
	ctx := browser(t, true)
	alice := g.link("g1", "alice")
	do(t, ctx, chromedp.Navigate(srv.URL+alice+"report/0"), chromedp.WaitVisible("nav.turns .keys"))
	do(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	waitPath(t, ctx, alice+"report/1")
	do(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	waitPath(t, ctx, alice+"report/2")
	if h := heading(t, ctx); h != "Channel, August 1940: Turn 2" {
		t.Errorf("heading %q", h)
	}
	if text := run(t, ctx, chromedp.Text("main")); strings.Contains(text, ghost) || !strings.Contains(text, "RED1") {
		t.Errorf("alice's report 2 in the browser:\n%s", text)
	}
	screenshot(t, ctx, "report-2")
}

// The keyboard reaches everything: the first Tab shows the skip link, which leads to the content.
func TestBrowserSkipLink(t *testing.T) {
	_, srv := finishedGameServer(t)
	ctx := browser(t, true)
	do(t, ctx, chromedp.Navigate(srv.URL+"/g/g1/"), chromedp.WaitReady("main"), chromedp.KeyEvent(kb.Tab))
	if c := run(t, ctx, chromedp.Evaluate[string](`document.activeElement.className`)); c != "skip" {
		t.Fatalf("the first Tab focuses %q", c)
	}
	if left := run(t, ctx, chromedp.Evaluate[float64](`document.activeElement.getBoundingClientRect().left`)); left < 0 {
		t.Errorf("the focused skip link is off the screen (left %v)", left)
	}
	screenshot(t, ctx, "game-skip-link")
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	if id := run(t, ctx, chromedp.Evaluate[string](`document.activeElement.id`)); id != "content" {
		t.Errorf("the skip link leads to %q", id)
	}
}

// Without JavaScript every page works: the links step by loading the next page; the arrow keys do
// nothing and the hint about them stays hidden.
func TestBrowserWithoutScripts(t *testing.T) {
	_, srv := finishedGameServer(t)
	ctx := browser(t, false)
	do(t, ctx, chromedp.Navigate(srv.URL+"/g/g1/round/0"), chromedp.WaitVisible("main h1"))
	if hidden := run(t, ctx, chromedp.Evaluate[bool](`document.querySelector("nav.turns .keys").hidden`)); !hidden {
		t.Error("the arrow keys' hint shows without the script")
	}
	do(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	time.Sleep(300 * time.Millisecond)
	waitPath(t, ctx, "/g/g1/round/0")
	if _, err := chromedp.RunResponse(ctx, chromedp.Click(`nav.turns a[rel="next"]`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitPath(t, ctx, "/g/g1/round/1")
	if h := heading(t, ctx); h != "Channel, August 1940: Turn 1" {
		t.Errorf("heading %q", h)
	}
	screenshot(t, ctx, "round-1-noscript")
}

// --- screenshots ---------------------------------------------------------------------------------

// capture is the browser's viewport as an image, once every picture on the page has loaded.
func capture(t *testing.T, ctx context.Context) image.Image {
	t.Helper()
	deadline := time.Now().Add(browserHang)
	for {
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)`))
		if err == nil && done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pictures did not load: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	b := run(t, ctx, chromedp.CaptureScreenshot())
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// screenshot compares the viewport with testdata/screenshots/NAME.png (-update writes it).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	got := capture(t, ctx)
	path := filepath.Join("testdata", "screenshots", name+".png")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := writePNG(path, got); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (go test -run Browser -update writes it)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, name, got, want)
}

// Tolerances of a screenshot comparison. Fonts are drawn a little differently from one machine to
// the next, so both images are compared in blocks of block×block pixels, each the average of its
// pixels: a block differs when one of its channels differs by more than blockDiff (of 255), and the
// images differ when more than maxBlocks of the blocks do. A moved line of text or a changed colour
// differs in many blocks; anti-aliasing differs in none.
const (
	block     = 4
	blockDiff = 40
	maxBlocks = 0.004
)

// compare fails the test when two screenshots differ beyond the tolerances, and writes what it got and
// a picture of the differences (red blocks over a faded copy of want) to a folder it names.
func compare(t *testing.T, name string, got, want image.Image) {
	t.Helper()
	gb, wb := got.Bounds(), want.Bounds()
	if gb.Dx() != wb.Dx() || gb.Dy() != wb.Dy() {
		t.Errorf("%s: the screenshot is %v, the golden %v", name, gb.Size(), wb.Size())
		saveDiff(t, name, got, nil)
		return
	}
	w, h := gb.Dx()/block, gb.Dy()/block
	bad := 0
	mask := make([]bool, w*h)
	for by := 0; by < h; by++ {
		for bx := 0; bx < w; bx++ {
			var sg, sw [3]int
			for y := 0; y < block; y++ {
				for x := 0; x < block; x++ {
					r1, g1, b1, _ := got.At(gb.Min.X+bx*block+x, gb.Min.Y+by*block+y).RGBA()
					r2, g2, b2, _ := want.At(wb.Min.X+bx*block+x, wb.Min.Y+by*block+y).RGBA()
					sg[0], sg[1], sg[2] = sg[0]+int(r1>>8), sg[1]+int(g1>>8), sg[2]+int(b1>>8)
					sw[0], sw[1], sw[2] = sw[0]+int(r2>>8), sw[1]+int(g2>>8), sw[2]+int(b2>>8)
				}
			}
			for c := 0; c < 3; c++ {
				if d := (sg[c] - sw[c]) / (block * block); d > blockDiff || d < -blockDiff {
					mask[by*w+bx] = true
				}
			}
			if mask[by*w+bx] {
				bad++
			}
		}
	}
	if frac := float64(bad) / float64(w*h); frac > maxBlocks {
		t.Errorf("%s: %d of %d blocks (%.2f %%) differ from the golden, more than %.2f %%", name, bad, w*h, 100*frac, 100*maxBlocks)
		saveDiff(t, name, got, func(img *image.RGBA) {
			for y := 0; y < gb.Dy(); y++ {
				for x := 0; x < gb.Dx(); x++ {
					r, g, b, _ := want.At(wb.Min.X+x, wb.Min.Y+y).RGBA()
					grey := uint8(((r + g + b) / 3 >> 8) / 3 * 1)
					c := color.RGBA{grey + 170, grey + 170, grey + 170, 255}
					if bx, by := x/block, y/block; bx < w && by < h && mask[by*w+bx] {
						c = color.RGBA{220, 0, 0, 255}
					}
					img.Set(x, y, c)
				}
			}
		})
	}
}

// saveDiff writes a failed comparison's screenshot (and its difference picture) into a folder that
// outlives the test, and names it.
func saveDiff(t *testing.T, name string, got image.Image, diff func(*image.RGBA)) {
	t.Helper()
	dir, err := os.MkdirTemp("", "sortie-web-screenshots-")
	if err != nil {
		t.Error(err)
		return
	}
	writePNG(filepath.Join(dir, name+".got.png"), got)
	if diff != nil {
		img := image.NewRGBA(got.Bounds())
		diff(img)
		writePNG(filepath.Join(dir, name+".diff.png"), img)
	}
	t.Logf("%s: the screenshot and its differences are in %s", name, dir)
}

func writePNG(path string, img image.Image) error {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
