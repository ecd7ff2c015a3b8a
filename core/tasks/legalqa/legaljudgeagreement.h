#pragma once

// How far to trust a legal-QA judge: its coverage and contradiction grades against the
// reference grader's labels on answers it did not train on — per label precision, recall
// and F1, as the legal-QA paper's table 3 reports Qwen-72B against GPT-4o. The requests
// are `rwb judge data` lines (judge/judgedata.h): exactly what the coverage and
// consistency rewards send, so a judge is measured as the rewards will use it, through
// its JudgeClient (any backend; cached like the rewards' calls). `rwb judge eval`;
// docs/judges.md, "How far to trust a judge".

#include "eval/confusionmatrix.h"
#include "judge/chat.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace rwb::data {
struct ChatRecord;
}

namespace rwb::judge {

class JudgeClient;

// The labels grades are counted under, here and in the workbench's Judge tab:
//   coverage     0 "none" (≤ 0), 1 "partial" (between), 2 "full" (≥ 1)
//   consistency  0 "contradiction" (< 0.5), 1 "consistent" (≥ 0.5)
// −1 for NaN (None: no grade).
int coverageLabel(double coverage);
int consistencyLabel(double consistency);
inline constexpr const char *kCoverageLabels[] = {"none", "partial", "full"};
inline constexpr const char *kConsistencyLabels[] = {"contradiction", "consistent"};

// One labelled request: a `rwb judge data` line.
struct LabelledRequest {
    std::string id;
    std::string kind; // "label": right | vague | wrong | wrong_vague | other
    std::vector<ChatMessage> messages;
    double coverage = 0.0;      // the reference grader's
    bool contradiction = false; // the reference grader's
    int facts = 0;              // the reference answer's facts: "facts", else the length of
                                // the target's "reference_points"; 0 unknown
    size_t line = 0;
};

// Reads `rwb judge data` lines (chat lines with "coverage" and "contradiction"); the
// first `limit` when > 0. Throws data::InputException naming the file, line and field.
std::vector<LabelledRequest> readLabelledRequests(const std::string &path, size_t limit = 0);

// One such line, already read as a chat line (`record`, line `record.lineNumber` of
// `path`); the same checks. legaljudgeranking.h's reader of mixed files uses it.
LabelledRequest labelledRequestOf(data::ChatRecord record, const std::string &path);

// One request's outcome.
struct AgreementItem {
    std::string id;
    std::string kind;
    double referenceCoverage = 0.0;
    bool referenceContradiction = false;
    int facts = 0;
    bool ok = false;            // the judge replied and the reply was read
    double judgedCoverage = 0.0;
    bool judgedContradiction = false;
    std::string error;          // why not ok
    std::string reply;          // the raw reply ("" when none)
};

// Agreement on one slice of the requests (a kind of answer, a number of facts). A request
// whose reply failed counts in n as a disagreement.
struct KindAgreement {
    size_t n = 0;
    size_t coverageAgrees = 0;
    size_t consistencyAgrees = 0;

    void add(bool coverageAgreed, bool consistencyAgreed)
    {
        ++n;
        coverageAgrees += coverageAgreed ? 1 : 0;
        consistencyAgrees += consistencyAgreed ? 1 : 0;
    }
    // The shares that agree; NaN for an empty slice.
    double coverageShare() const { return n ? static_cast<double>(coverageAgrees) / static_cast<double>(n) : NAN; }
    double consistencyShare() const
    {
        return n ? static_cast<double>(consistencyAgrees) / static_cast<double>(n) : NAN;
    }
};

struct LegalAgreement {
    eval::ConfusionMatrix coverage{3};    // rows: the reference's label; columns: the judge's
    eval::ConfusionMatrix consistency{2};
    size_t requests = 0;
    size_t failed = 0;   // no reply after the retries, or a reply that could not be read
    std::map<std::string, KindAgreement> byKind;
    std::map<int, KindAgreement> byFacts; // by the reference answer's facts (0: unknown)
    uint64_t cacheHits = 0;
    int64_t promptTokens = 0;
    int64_t completionTokens = 0;
    double seconds = 0.0; // wall time of the whole measurement
    std::vector<AgreementItem> items;
};

// Counts one request's outcome into `a`: a read reply into the two matrices (the judge's
// labels against the reference's), and into a.byKind and a.byFacts, where a failed one
// counts as a disagreement (and in a.failed); a.requests grows by one. Not a.items.
// measureLegalAgreement counts each request so; a view of `rwb judge eval --out` lines
// counts a slice of them again.
void countAgreementItem(LegalAgreement &a, const AgreementItem &item);

// Sends every request through `client` (in batches of `batch`, `progress(done, total)`
// after each), reads each reply as the coverage / consistency rewards do, and counts the
// labels. Failed or unreadable replies are counted in `failed`, not in the matrices.
LegalAgreement measureLegalAgreement(const JudgeClient &client, const std::vector<LabelledRequest> &requests,
                                     size_t batch = 64,
                                     const std::function<void(size_t done, size_t total)> &progress = {});

} // namespace rwb::judge
