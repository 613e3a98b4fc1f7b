package analysis

import (
	"regexp"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// What a person reports having seen: "pods, including KIAM, started crashlooping and became
// pending", "the hub was OOMKilled twice". Such a sentence is testimony, not observation: its
// symptom kinds are listed on the claim (ClaimRef.Symptoms) and count for related incidents,
// but never become symptoms nor raise a cause's confidence.

// symptomClaim is one way people write that a symptom happened.
type symptomClaim struct {
	kind string
	re   *regexp.Regexp
}

// past is what makes a sentence a report of what happened rather than of what may: a verb in
// the past, or a word of a state that was seen.
const past = `(?:was|were|got|had|has been|have been|been|became|become|went|started|kept|stayed|remained|ended up|began|stuck|saw|seen|noticed|observed|found)`

// symptomClaims map what people write to symptom kinds. They are narrow on purpose.
var symptomClaims = []symptomClaim{
	{PodEvicted, regexp.MustCompile(`(?i)\b` + past + `\b[\w ,()-]{0,40}\bevict(?:ed|ions?)\b|\bevicted\b|\bevictions? (?:of|happened|started|began)\b`)},
	{PodPending, regexp.MustCompile(`(?i)\b` + past + `\b[\w ,()-]{0,40}\bpending\b|\bpending (?:state|status|pods)\b|\bunschedulable\b|\bcould(?:n't| not) be scheduled\b`)},
	{CrashLoopBackOff, regexp.MustCompile(`(?i)\bcrash[- ]?loop(?:ed|ing|s)?\b|\bCrashLoopBackOff\b`)},
	{OOMKilled, regexp.MustCompile(`(?i)\bOOM[- ]?kill(?:ed|ing)\b|\bkilled (?:by the|for) (?:oom|out of memory)\b|\bran out of memory and (?:was|were) killed\b`)},
	{ContainerRestarted, regexp.MustCompile(`(?i)\b(?:pods?|containers?|hub|proxy|service)\b[\w ,()-]{0,40}\brestart(?:ed|ing)\b|\brestart(?:ed|ing)\b[\w ,()-]{0,20}\b(?:times|repeatedly|over and over)\b`)},
	{LivenessProbeFailed, regexp.MustCompile(`(?i)\bliveness probes? (?:failed|were failing|was failing|kept failing|started failing|timed out)\b`)},
	{ReadinessProbeFailed, regexp.MustCompile(`(?i)\breadiness probes? (?:failed|were failing|was failing|kept failing|started failing|timed out)\b`)},
	{ImagePullFailed, regexp.MustCompile(`(?i)\bImagePullBackOff\b|\bErrImagePull\b|\b(?:could(?:n't| not) pull|failed-pulling) (?:the |its |their )?images?\b|\bimage pulls? failed\b`)},
	{NodeNotReady, regexp.MustCompile(`(?i)\bnodes?\b[\w ,()-]{0,40}\b(?:went|became|were|was|turned|got) (?:into )?(?:NotReady|not ready|unready|unreachable)\b|\bNotReady\b`)},
	{NodePressure, regexp.MustCompile(`(?i)\b(?:memory|disk|pid) ?pressure\b`)},
	{ScaleUp, regexp.MustCompile(`(?i)\b(?:scaled up|scaling up)\b[\w ,()-]{0,30}\bnodes?\b|\bautoscaler (?:added|launched|created) \w* ?nodes?\b|\bnodes? (?:were|was) added\b`)},
	{Preempted, regexp.MustCompile(`(?i)\b(?:was|were|got) preempted\b`)},
	{NodeOOM, regexp.MustCompile(`(?i)\b(?:system|kernel|node)[- ]level oom\b|\bsystem ?oom\b|\bkernel(?:'s)? oom[- ]killer\b`)},
	{PodStuckCreating, regexp.MustCompile(`(?i)\bstuck in ContainerCreating\b|\bContainerCreating\b[\w ,()-]{0,30}\b(?:stuck|forever|for hours|for minutes)\b|\bFailedMount\b|\bFailedCreatePodSandBox\b`)},
	{JobFailed, regexp.MustCompile(`(?i)\bjobs? (?:failed|had failed)\b|\bBackoffLimitExceeded\b`)},
}

// hypotheticalRe finds a sentence that says what may happen, or explains how things work,
// rather than what did: its symptoms are not reported.
var hypotheticalRe = regexp.MustCompile(`(?i)\b(?:if|would|could|might|may|will|can|should|unless|whenever|to (?:avoid|prevent)|in case|otherwise|prevents?|so that)\b`)

// nameRe finds what a sentence names rather than says: a file ("33-…-crashloop-events.txt"),
// a path, a URL, a long hyphenated name.
var nameRe = regexp.MustCompile(`\S*(?:\.(?:txt|md|log|json|ya?ml|go|sh)\b|://|/\S*/)\S*|\S+-\S+-\S+-\S+`)

// claimedSymptoms are the symptom kinds a person's sentence reports having happened.
func claimedSymptoms(c cluster.Claim) []string {
	text := statedNegativeRe.ReplaceAllStringFunc(c.Text, func(s string) string { return statedNegative[strings.ToLower(strings.Join(strings.Fields(s), " "))] })
	if text == "" || hypotheticalRe.MatchString(text) {
		return nil
	}
	text = nameRe.ReplaceAllString(text, " ")
	var out []string
	for _, p := range symptomClaims {
		if slices.Contains(out, p.kind) {
			continue
		}
		for _, loc := range p.re.FindAllStringIndex(text, -1) {
			if !negatedRe.MatchString(text[max(0, loc[0]-24):loc[1]]) {
				out = append(out, p.kind)
				break
			}
		}
	}
	return out
}

// negatedRe finds a sentence saying a symptom did not happen ("so pods on that node are not
// evicted", "the hub never restarted"), in the words before a symptom's or among them.
var negatedRe = regexp.MustCompile(`(?i)\b(?:not|never|no|nor|without)\b|n't\b`)

// statedNegative are the symptoms whose own words hold a negation ("could not be scheduled",
// "not ready"): written as a word of their own before negatedRe looks.
var (
	statedNegativeRe = regexp.MustCompile(`(?i)\bcould(?:n't|\s+not)\s+be\s+scheduled\b|\bcould(?:n't|\s+not)\s+pull\b|\bnot\s+ready\b`)
	statedNegative   = map[string]string{"could not be scheduled": "unschedulable", "couldn't be scheduled": "unschedulable",
		"could not pull": "failed-pulling", "couldn't pull": "failed-pulling", "not ready": "NotReady"}
)
