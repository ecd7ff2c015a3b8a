#pragma once

#include "judge/decision.h"
#include "task/task.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rwb::reward {


// Why a component gave its value. The GUI maps each to a translated sentence;
// core keeps Explanation::detail in English for logs and the CLI.
enum class Reason {
    Compared,          // partial / marker: 2·LCS / (|answer| + |gold|)
    BothEmpty,         // both compared strings empty → 1
    OneEmpty,          // exactly one compared string empty → 0
    MarkersOnly,       // marker: both are only markers → partial of the unstripped strings
    BothUnknown,       // exist: gold and answer are both 不明 → 1
    FoundInSource,     // exist: the answer occurs in sender header + body → 1
    NotInSource,       // exist: it does not → 0
    EmptyAnswer,       // exist / domain: the answer is empty → 0
    FormatOk,          // format: <thinking>…</thinking><answer>…</answer> → 1
    FormatBad,         // format: see Explanation::formatCheck → 0
    UnknownAnswer,     // domain: the answer is 不明 → 0
    NoAddress,         // domain: the sender header has no '@' → 0
    BestCandidate,     // domain: the best romanized candidate against the domain
    // legal QA (legalrewards.h)
    XmlFormatOk,       // xml_format: <reasoning>…</reasoning><answer>…</answer><citation>…</citation> → 1
    XmlFormatBad,      // xml_format: see Explanation::formatName → 0
    CitedRetrieved,    // non_hallucination: format holds and a cited code is in the prompt → 0.5
    NothingRetrievedCited, // non_hallucination: format holds, no cited code is in the prompt → 0
    FormatBroken,      // non_hallucination: the format does not hold → 0
    CitationsCompared, // citation_f1: the cited set against the gold set
    SemanticCompared,  // semantic: max(0, cosine(answer, reference answer))
    // multi-hop QA (multihoprewards.h)
    AnswerF1,          // answer_f1: F1 of the answer's tokens against the gold's
    AnswerEm,          // answer_em: the answer equals the gold (1) or not (0)
    NoAnswer,          // answer_f1 / answer_em: no <answer> block → 0
    StepFormatOk,      // step_format: the step format through ≥ 1 hop to an answer → 1
    StepFormatBad,     // step_format: see Explanation::formatName → 0
    // judge rewards (judgerewards.h)
    JudgeVerdict,      // the judge's verdict(s) gave the value (Explanation::decisions)
    JudgeFailed,       // a call failed or its reply did not parse: None
    // a generic component (library/library.h): Explanation::key names the sentence, args fill it
    Library,
    // any other component (a program's own): Explanation::detail says why
    Custom,
};

// A value a component could not give — its judge failed after its retries, or the judge's
// reply did not parse — is None, held as a quiet NaN. A rollout with a None component (of
// weight > 0) has a None total; GRPO computes its group's advantage over the others and
// gives it advantage 0 (train/advantages.h), and counts it (judge/failures).
inline constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
inline bool isNone(double value) { return std::isnan(value); }

// One call of a judge made while scoring (judge/decision.h).
using JudgeDecision = judge::Decision;

// What a component says of one item of a batch beside its value: a user's Python
// function's extra values (TRL's log_extra, verl's dict keys) and why a value is None.
struct ItemNote {
    std::string component; // the component's name (its label)
    size_t item = 0;       // the item's index in the batch
    std::string error;     // why the value is None (a traceback, a timeout); "" none
    std::string extraJson; // a JSON object of extra values; "" none
};

// What scoring produced besides the values. Components append from any thread.
class ScoreLog {
public:
    void add(JudgeDecision decision)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_decisions.push_back(std::move(decision));
    }
    std::vector<JudgeDecision> take()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        return std::exchange(m_decisions, {});
    }
    void addNote(ItemNote note)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_notes.push_back(std::move(note));
    }
    std::vector<ItemNote> takeNotes()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        return std::exchange(m_notes, {});
    }
    // A value a component logs for the batch ("accuracy/mean_length", TRL's log_metric),
    // and the seconds a component took ("reward_time/<component>"); GRPO records them
    // as the step's metrics.
    void addMetric(std::string name, double value)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_metrics.emplace_back(std::move(name), value);
    }
    std::vector<std::pair<std::string, double>> takeMetrics()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        return std::exchange(m_metrics, {});
    }

private:
    std::mutex m_mutex;
    std::vector<JudgeDecision> m_decisions;
    std::vector<ItemNote> m_notes;
    std::vector<std::pair<std::string, double>> m_metrics;
};

// What a component whose values come from elsewhere (a Python function, a reward server)
// logs of one batch: a note per item with an error or extra values (errors[i], extra[i] a
// JSON object's text, "" or "{}" for none), and each metric as
// "reward_metric/<component>/<metric>".
void logBatch(ScoreLog &log, const std::string &component, const std::vector<std::string> &errors,
              const std::vector<std::string> &extra, const std::vector<std::pair<std::string, double>> &metrics);

// A half-open range of code points [begin, begin + length) in a normalized string.
struct Span {
    size_t begin = 0;
    size_t length = 0;
};

// What a component saw and why it gave its value. Strings are UTF-8; spans count code points.
struct Explanation {
    std::string reward;
    double value = 0.0;
    Reason reason = Reason::Custom;     // a built-in component sets its own
    std::string detail;                 // one English line for logs, the CLI and, for Custom, the views
    // Library: which sentence explains the value ("exact_match.equal"), and what fills its
    // %1, %2, … in order; the views translate the sentence by its key (widgets/rewardtext.cpp),
    // `detail` is the same sentence in English.
    std::string key;
    std::vector<std::string> args;
    // What the component failed with, beside a None value (a Python function's traceback,
    // a remote reward's error); "" when nothing failed.
    std::string error;

    std::string answer;                 // the compared answer (normalized, markers stripped for `marker`)
    std::string gold;                   // the compared gold, the same way
    Span answerSpan;                    // the longest common substring in `answer`
    Span goldSpan;                      // … and in `gold`
    std::vector<std::string> markersRemovedFromAnswer;
    std::vector<std::string> markersRemovedFromGold;

    size_t sourcePosition = std::string::npos; // exist: where the answer starts in the normalized source

    int formatCheck = 0;                // format: the FormatCheck value

    struct Candidate {
        std::string name;               // the answer (markers stripped) or a synonym of it
        std::string romaji;
        double value = 0.0;             // partial(romaji, domain)
        Span romajiSpan;                // the common substring in romaji …
        Span domainSpan;                // … and in the domain
    };
    std::string domain;                 // domain: the sender's domain
    std::vector<Candidate> candidates;  // domain: every candidate, in order (answer first)

    // legal QA
    std::string formatName;             // xml_format: eval::legalFormatName ("ok", "wrong_order", …)
    std::vector<int64_t> cited;         // the cited set, in order of first citation
    std::vector<int64_t> goldCodes;     // the gold law codes
    std::vector<int64_t> retrievedCodes; // the law codes in the prompt
    double precision = 0.0;             // citation_f1, answer_f1
    double recall = 0.0;                // citation_f1, answer_f1
    std::string embedder;               // semantic: the embedding backend's name

    // multi-hop QA: precision / recall above for answer_f1; formatName for step_format's problem
    int hops = 0;                       // step_format: complete retrieval hops

    // judge rewards: every call made for this completion, in order
    std::vector<JudgeDecision> decisions;
};

// One reward component: a pure function of a task's example and a parsed completion, in
// [0, 1]. Implementations are immutable after construction and safe to call from several
// threads. A component scores the examples of the task it is registered for
// (registry.h); given another task's data it throws std::logic_error.
class Reward {
public:
    virtual ~Reward() = default;
    virtual std::string_view name() const = 0;
    virtual double score(const task::Example &example, const task::Completion &completion) const = 0;
    virtual Explanation explain(const task::Example &example, const task::Completion &completion) const = 0;
    // Scores many pairs at once (examples[i] with completions[i]) into `out` (resized).
    // The default calls score() for each; a component that asks a server (an embedding
    // endpoint, a judge) overrides it to send one batch. A judge component adds its
    // decisions to `log` when given one; a value may be None (kNone).
    virtual void scoreBatch(const std::vector<const task::Example *> &examples,
                            const std::vector<const task::Completion *> &completions, std::vector<double> &out,
                            ScoreLog *log = nullptr) const;
    // Throws std::invalid_argument naming the example when this component could never
    // score it (a judge reward without the rubric or reference answer it needs), so that
    // GRPO and `rwb reward score` stop before they start rather than at the step that
    // first samples it. The default accepts every example.
    virtual void checkExample(const task::Example &example) const { (void)example; }
};

// A reward of one task, written against the task's own example and completion types E and
// C; the generic calls reach the typed ones after a checked cast.
template <class E, class C>
class TaskReward : public Reward {
public:
    double score(const task::Example &example, const task::Completion &completion) const final
    {
        return score(task::as<E>(example), task::as<C>(completion));
    }
    Explanation explain(const task::Example &example, const task::Completion &completion) const final
    {
        return explain(task::as<E>(example), task::as<C>(completion));
    }
    virtual double score(const E &example, const C &completion) const = 0;
    virtual Explanation explain(const E &example, const C &completion) const = 0;
};

// 2·LCS(a, b) / (|a| + |b|); 1 when both are empty, 0 when exactly one is. The
// common substring goes to spanA / spanB when given.
double partialRatio(std::u32string_view a, std::u32string_view b, Span *spanA = nullptr, Span *spanB = nullptr);

} // namespace rwb::reward
