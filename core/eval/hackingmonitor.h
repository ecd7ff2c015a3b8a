#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rwb::eval {

// What the reward-hacking monitor watches for, with the defaults the workbench ships.
// A component's "rise" over a window of W steps [from, to] (to − from + 1 = W) is the mean
// of its last ⌊W/2⌋ steps minus the mean of its first ⌊W/2⌋ steps (the middle step of an
// odd window counts in neither). Half-window means rather than a least-squares slope: they
// are as robust to step-to-step noise, and the numbers shown ("marker 0.41 → 0.58") are
// the two means themselves, so a user can check them against the curve. A steady trend of
// s per step gives a rise of s·W/2.
struct HackingSettings {
    // W, in steps (values below 2 count as 2).
    int window = 20;
    // A component rises when its rise is above this (0.05 over 20 steps: a trend of about
    // 0.005 per step, about 0.1 over the window; well above the noise of a mean over the
    // batch's completions).
    double riseThreshold = 0.05;
    // Validation F1 falls when the last evaluation in (from, to] is below the best one at
    // or before `from` by more than this (0.02: two points of F1, beyond the jitter of a
    // greedy evaluation on a few hundred e-mails). The best, not the last: a slide of one
    // point per evaluation while a component climbs is a fall all the same.
    double f1DropThreshold = 0.02;
    // Without validation metrics: another component falls when its rise is below minus
    // this, while one rises by more than riseThreshold.
    double fallThreshold = 0.05;
    // Collapse: the step's mean number of distinct answers per group is at most this
    // (1.5: half the groups or more gave one answer for all G samples) …
    double minDistinctAnswers = 1.5;
    // … or the step's most common answer is more than this share of its completions
    // (0.5: one answer for most prompts, whatever they ask).
    double maxTopAnswerShare = 0.5;
    // The validation metrics: whichever of these a run logs (its task's headline metric:
    // eval/f1 for extraction, eval/joint for legal QA) is the one whose fall makes a rising
    // component hacking.
    std::vector<std::string> validationMetrics{"eval/f1"};
};

enum class AlertKind {
    Hacking,      // a component rises while validation F1 falls
    Disagreement, // no validation metrics: one component rises while another falls
    Collapse,     // completions collapse onto few answers
};

// One condition, held from step `from` to step `to`. `before` / `after` are the watched
// value where the alert began and at its latest step:
//   Hacking:      components = {rising}; before/after its first-half / second-half means;
//                 otherBefore/otherAfter the best validation F1 at or before the window start
//                 and the last one in the window.
//   Disagreement: components = {rising, falling}; before/after the rising one's half means,
//                 otherBefore/otherAfter the falling one's.
//   Collapse:     metric = the metric that crossed its threshold; before = its value at
//                 `from`, after = its value at `to`; threshold = the setting it crossed;
//                 otherBefore/otherAfter are NaN.
// `values` and `message` are English ("marker 0.41 → 0.58 while F1 0.22 → 0.17") for logs
// and the CLI; a GUI composes its own translated text from the numbers.
struct HackingAlert {
    AlertKind kind = AlertKind::Hacking;
    std::vector<std::string> components;
    std::string metric; // the metric whose values `before` / `after` are
    std::string validationMetric; // Hacking: the validation metric that fell ("eval/f1")
    int64_t from = 0;
    int64_t to = 0;
    double before = 0.0;
    double after = 0.0;
    double otherBefore = 0.0;
    double otherAfter = 0.0;
    double threshold = 0.0; // Collapse only
    std::string values;
    std::string message;
};

// Metric series as the run store holds them: name → (step, value) ordered by step.
using MetricSeries = std::map<std::string, std::vector<std::pair<int64_t, double>>>;

// Watches a GRPO run's metrics (docs/grpo.md's names) for reward hacking and collapse.
//
// Feed it one step at a time with update(), in step order; after each step it judges the
// window that ends there, so a step costs O(C·W) for C components (plus O(log n) look-ups),
// whatever the length of the run. It reads:
//   rewards/<name>/mean   every reward component (not rewards/overlong/mean: the length
//                         penalty is applied beside the components, not among them),
//   eval/f1               validation F1 at evaluation steps (or another of
//                         HackingSettings::validationMetrics: the task's headline),
//   completions/distinct_answers_per_group, completions/top_answer_share.
// Rules, for the window [from, to] ending at the step just fed (judged once the run's
// components go back to `from`):
//   Hacking       a component rises (see HackingSettings) and validation F1 falls. Needs an
//                 evaluation at or before `from` and one in (from, to]; windows without an
//                 evaluation inside are not judged.
//   Disagreement  only while the run has logged no eval/f1 at all: the component that rises
//                 most rises above riseThreshold while the one that falls most falls by more
//                 than fallThreshold.
//   Collapse      the step's distinct answers per group ≤ minDistinctAnswers, or its top
//                 answer share > maxTopAnswerShare (each metric its own alert).
// A condition that holds again with a range that overlaps or touches the range of its
// last alert (same kind, same components or metric) extends that alert: `to` and `after`
// move, the range grows, and no new alert is added. Hacking at steps 20, 21, 22 is one
// alert over [1, 22]; a collapse at steps 5…9 is one alert over [5, 9].
//
// Not thread-safe; one owner at a time. Never throws for odd input: NaN and infinite
// values are ignored, and a step at or before the last one fed updates the series without
// being judged again (a live point that a store read already delivered).
class HackingMonitor {
public:
    explicit HackingMonitor(HackingSettings settings = {});

    // The metrics logged at `step` (any names; those above are read). True when an alert
    // was added or extended (what a view needs to redraw).
    bool update(int64_t step, const std::vector<std::pair<std::string, double>> &metrics);
    // Forgets the run (series and alerts); the settings stay.
    void reset();
    // New thresholds; the alerts so far are dropped and the series judged again.
    void setSettings(const HackingSettings &settings);
    const HackingSettings &settings() const { return m_settings; }

    // Every alert so far, oldest first.
    const std::vector<HackingAlert> &alerts() const { return m_alerts; }
    // The alert to name first (nullptr when none): of those that reach the latest step any
    // alert reaches, a hacking alert before a disagreement before a collapse, then the
    // largest change (after − before, in absolute value). Two conditions can hold at
    // once, and the one that a component's noise raised last is seldom the telling one.
    const HackingAlert *headline() const;
    // The last step judged (-1 before the first).
    int64_t lastStep() const;

    // A whole run at once: its steps fed in order to a fresh monitor.
    static std::vector<HackingAlert> scan(const MetricSeries &series, const HackingSettings &settings = {});

private:
    using Points = std::vector<std::pair<int64_t, double>>;
    struct HalfMeans {
        double first = 0.0;
        double second = 0.0;
        double rise() const { return second - first; }
    };

    void record(const std::string &name, int64_t step, double value);
    bool judge(int64_t step); // true when an alert was added or extended
    bool halfMeans(const Points &points, int64_t from, int64_t to, HalfMeans *out) const;
    void raise(HackingAlert alert, bool *changed);

    HackingSettings m_settings;
    std::map<std::string, Points> m_components; // by component name
    Points m_f1;               // the validation metric's points
    std::string m_validationName; // which of settings().validationMetrics they are
    Points m_distinct;
    Points m_topShare;
    std::vector<HackingAlert> m_alerts;
    std::vector<int64_t> m_steps; // every step judged, in order (setSettings judges them again)
};

// "Hacking", "Disagreement", "Collapse".
const char *alertKindName(AlertKind kind);

} // namespace rwb::eval
