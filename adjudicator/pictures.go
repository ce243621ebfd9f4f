package adjudicator

// Map pictures, drawn after the commit. A round's transaction stores each report's scene (what the
// player's side sees, as plain data) as the recipe of an outbox blob and queues the report to wait for it;
// DrawPictures draws every waiting scene afterwards, on every core, and stores the pictures in one commit
// that also makes their mails pending. The transaction that holds up the intake no longer draws, and each
// picture is kept once: the report's mail, its RESENDs and the kept report all name the same blob.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"time"

	"sortie/mailer/outmail"
	rhex "sortie/rules/hex"
	mappicture "sortie/rules/hex/picture"
	"sortie/rules/ruleset"
	"sortie/storage"
)

// builtReport is a player's report and the scene of its map picture (nil when the ruleset draws none),
// built ahead of queueing (buildReports).
type builtReport struct {
	rep   ruleset.Report
	scene []byte // the scene as JSON: the picture's recipe
	err   error
}

func buildReport(rg ruleset.Game, player string, log *ruleset.Log) builtReport {
	b := builtReport{rep: rg.Report(player, log)}
	if sc := b.rep.Picture(); sc != nil {
		b.scene, b.err = json.Marshal(sc)
	}
	return b
}

// buildReports builds the reports of the players told of a round and their pictures' scenes, on every
// core at once: both are pure (the same round gives the same bytes).
func buildReports(rg ruleset.Game, log *ruleset.Log, players []string) map[string]builtReport {
	out := make([]builtReport, len(players))
	parallel(len(players), func(i int) { out[i] = buildReport(rg, players[i], log) })
	built := make(map[string]builtReport, len(players))
	for i, p := range players {
		built[p] = out[i]
	}
	return built
}

// parallel runs do(0) … do(n-1) on one goroutine per core.
func parallel(n int, do func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				do(i)
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// pictureBlob names a picture's blob after its scene: the same scene is the same picture, kept once.
func pictureBlob(scene []byte) string {
	sum := sha256.Sum256(scene)
	return "map/" + hex.EncodeToString(sum[:])
}

// reportParts are what a player's report carries besides its text: the map of what the player's side
// sees (Report.Picture, built by the ruleset from that side's view only), a PNG shown inline where the
// mail program can. The part names its blob, promised here with the scene as recipe and drawn after the
// commit (DrawPictures). A ruleset that draws no scene gives a report without a picture.
func reportParts(tx *storage.Tx, seat *Seat, rep ruleset.Report, b builtReport) ([]outmail.Part, []string, error) {
	if b.err != nil {
		return nil, nil, fmt.Errorf("the map picture of %s's report: %w", seat.Player, b.err)
	}
	if b.scene == nil {
		return nil, nil, nil
	}
	name := pictureBlob(b.scene)
	if err := tx.PromiseBlob(name, b.scene); err != nil {
		return nil, nil, err
	}
	return []outmail.Part{{Filename: fmt.Sprintf("map-%d.png", rep.Round), ContentType: "image/png", Inline: true}}, []string{name}, nil
}

// drawScene draws a picture from its recipe, the scene's JSON, with painter. A panic in the drawing is an
// error here: it must not take down the daemon, and the picture's mail waits until a build that draws it
// runs.
func drawScene(painter *mappicture.Painter, recipe []byte) (png []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			png, err = nil, fmt.Errorf("drawing panicked: %v", r)
		}
	}()
	var sc rhex.Scene
	if err := json.Unmarshal(recipe, &sc); err != nil {
		return nil, err
	}
	return painter.PNG(sc)
}

// DrawPictures draws every picture promised and not drawn yet (after the round's commit, or after a crash
// between that commit and the drawing), on every core, and stores them in one transaction, which makes
// the mails that waited for them pending. It returns how many it stored. One call draws at a time, so a
// picture is drawn once; one that cannot be drawn is logged, and not tried again until the service
// restarts (its mail waits: a report never leaves without its picture).
//
// The daemon's sender calls it before each pass, and Tick after its own work; both are cheap when
// nothing waits.
func (s *Service) DrawPictures() (int, error) {
	s.drawing.Lock()
	defer s.drawing.Unlock()
	var todo []storage.Recipe
	err := s.db.View(func(tx *storage.Tx) error {
		if waiting, err := tx.HasRecipes(); err != nil || !waiting {
			return err
		}
		all, err := tx.Recipes()
		for _, r := range all {
			if !s.drawFailed[r.Name] {
				todo = append(todo, r)
			}
		}
		return err
	})
	if err != nil || len(todo) == 0 {
		return 0, err
	}
	type drawnPicture struct {
		png []byte
		err error
	}
	t0 := time.Now()
	pics := make([]drawnPicture, len(todo))
	// A Painter a core, kept for the next round's pictures too (Service.painters).
	for len(s.painters) < runtime.GOMAXPROCS(0) {
		s.painters = append(s.painters, new(mappicture.Painter))
	}
	painters := make(chan *mappicture.Painter, len(s.painters))
	for _, p := range s.painters {
		painters <- p
	}
	parallel(len(todo), func(i int) {
		painter := <-painters
		defer func() { painters <- painter }()
		png, err := drawScene(painter, todo[i].Data)
		pics[i] = drawnPicture{png, err}
	})
	stored := 0
	err = s.db.Update(func(tx *storage.Tx) error {
		stored = 0
		for i, r := range todo {
			if pics[i].err != nil {
				continue
			}
			ok, err := tx.PutBlob(r.Name, pics[i].png)
			if err != nil {
				return err
			}
			if ok {
				stored++
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	s.timed("pictures", t0)
	for i, r := range todo {
		if pics[i].err != nil {
			if s.drawFailed == nil {
				s.drawFailed = map[string]bool{}
			}
			s.drawFailed[r.Name] = true
			s.log.Error().Err(pics[i].err).Str("picture", r.Name).Msg("a map picture could not be drawn; the mails that carry it wait")
		}
	}
	if stored > 0 {
		s.kick()
	}
	return stored, nil
}

// fillPictures gives the parts of mails read from the outbox whose pictures are not drawn yet their
// bytes, drawn now from the recipe the outbox holds: the same bytes DrawPictures will store, since the
// same scene gives the same picture. The archive shows a mail as it will be sent.
func fillPictures(tx *storage.Tx, mails []storage.Outgoing) error {
	var painter mappicture.Painter
	for i := range mails {
		m := &mails[i]
		for j := range m.Parts {
			if j >= len(m.PartBlobs) || m.PartBlobs[j] == "" || len(m.Parts[j].Data) > 0 {
				continue
			}
			recipe, err := tx.BlobRecipe(m.PartBlobs[j])
			if err != nil {
				return err
			}
			if recipe == nil {
				return fmt.Errorf("mail %s: part %d: picture %s is neither drawn nor waiting", m.ID, j+1, m.PartBlobs[j])
			}
			png, err := drawScene(&painter, recipe)
			if err != nil {
				return fmt.Errorf("mail %s: part %d: %w", m.ID, j+1, err)
			}
			m.Parts[j].Data = png // the outbox read gave this mail parts of its own
		}
	}
	return nil
}
