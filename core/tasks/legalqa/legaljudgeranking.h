#pragma once

// How well a rubric or rating judge orders answers by their true quality: Rubrics as
// Rewards' claim at judge level, that judging against a rubric (explicit: each item met or
// not, Σ w·c / Σ w⁺; implicit: one rating given the whole rubric) agrees better with the
// truth than judging without one (Simple-Likert: a rating of the answer alone;
// Reference-Likert: a rating against the reference answer). The requests are `rwb judge
// data --kinds` lines (legaljudgedata.h, rubricJudgeLine): exactly what each judge reward
// sends for answers whose true score s* the reference grader knows, so a judge is measured
// as the rewards will use it, through its JudgeClient (cached like the rewards' calls).
// For each judge kind: the reward's value per answer against s* — Spearman's ρ, the share
// of pairs of answers to one question ordered as the truth orders them, the mean absolute
// error — with bootstrap intervals over questions, and the paired difference of that
// share between each two kinds. `rwb judge eval`; docs/judges.md, "How far to trust a
// judge".

#include "eval/bootstrap.h"
#include "judge/chat.h"
#include "tasks/legalqa/legaljudgeagreement.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rwb::judge {

class JudgeClient;

// One line of a rubric or rating judge.
struct RankedRequest {
    std::string id;
    std::string judgeKind;  // rubric_explicit | rubric_implicit | likert_simple | likert_reference
    std::string answerId;   // the answer judged: the lines of one answer share it
    std::string questionId; // its question: pairs are formed within a question
    std::string kind;       // the answer's kind ("kind", else "label"; "" when neither)
    std::vector<ChatMessage> messages;
    double score = 0.0;     // s*, the answer's true score
    // rubric_explicit: the item's index within the rubric, the rubric's items, the weight.
    int item = -1;
    int items = 0;
    double weight = 0.0;
    size_t line = 0;
};

// A `rwb judge data` file: coverage lines (no "judge_kind", or "coverage") and the lines
// of the rubric and rating kinds, each in file order.
struct JudgeDataFile {
    std::vector<LabelledRequest> coverage;
    std::vector<RankedRequest> ranked;
    // rubric_explicit answers some of whose item lines lay past `limit`: left out whole.
    size_t cutAnswers = 0;
};

// Reads a `rwb judge data` file, the first `limit` lines when > 0. A line is a chat line
// (parseChatLine); a coverage line is read as readLabelledRequests reads it; a rubric or
// rating line needs "judge_kind", "answer_id", "question_id" (strings), "score" (within
// 0–1), and for rubric_explicit "item", "items" (whole numbers, 0 ≤ item < items) and
// "weight" (a finite number, not 0). Throws data::InputException naming the file, the
// line and the field: a missing or mistyped field, an unknown judge kind, an answer whose
// lines disagree on its question or score, an item given twice or with another count of
// items, an explicit answer with items missing (unless `limit` cut them off) or without
// a positive weight, a rating kind's line given twice for one answer, and a file with no
// request.
JudgeDataFile readJudgeData(const std::string &path, size_t limit = 0);

// One request's outcome.
struct RankedItem {
    bool ok = false;      // the judge replied and the reply was read
    double judged = 0.0;  // rubric_explicit: c (0 or 1); a rating kind: the rating as written
    std::string error;    // why not ok
    std::string reply;    // the raw reply ("" when none)
};

// One answer as one judge kind valued it.
struct RankedAnswer {
    std::string answerId, questionId, kind;
    double truth = 0.0;  // s*
    bool scored = false; // every request of it got a readable reply
    // The reward's value: rubric_explicit clamp(Σ w·c / Σ w⁺, 0, 1) over the items, a
    // rating kind (r − 1) / 9. Meaningless when not scored.
    double value = 0.0;
};

// One judge kind's agreement with the truth. Only scored answers count (an answer a
// failed request left without a value is no answer of the judge's, as its reward is
// None); a pair is two scored answers to one question whose s* differ (by more than
// 1e-12). NaN where there is nothing to compute (no pair, fewer than two answers, every
// value the same for Spearman).
struct KindRanking {
    std::string judgeKind;
    size_t requests = 0;
    size_t failed = 0;  // no reply after the retries, or a reply that could not be read
    size_t answers = 0;
    size_t scored = 0;
    size_t pairs = 0;
    size_t questions = 0; // questions with at least one pair: what the bootstrap resamples
    double spearman = NAN;         // ρ of the values and s* over the scored answers
    double pairwiseAccuracy = NAN; // the pairs the judge orders as s* does; a tie counts half
    eval::Interval pairwiseInterval{NAN, NAN, NAN, NAN}; // 95 %, questions resampled
    double meanAbsoluteError = NAN; // mean |value − s*|
    // What a judge replying every target gets on the same pairs: 1 for rubric_explicit;
    // for a rating below 1 where 1 + round(9 s*) gives two different s* one rating.
    double targetPairwiseAccuracy = NAN;
    std::vector<RankedAnswer> answerValues; // in the order the answers first appear
};

// The paired difference of pairwise accuracy between two kinds (a − b), on the answers
// both scored and the pairs among them, with its 95 % interval from resampling the
// questions (with at least one such pair). NaN without a common pair.
struct RankingDifference {
    std::string a, b;
    size_t answers = 0;
    size_t pairs = 0;
    size_t questions = 0;
    eval::Interval difference{NAN, NAN, NAN, NAN};
};

// The order kinds are reported in, the most guidance first (the rubric, then the
// reference, then nothing); a difference is an earlier kind minus a later one, so a
// positive one says the more guided judge ordered the answers better.
inline constexpr const char *kRankingOrder[] = {"rubric_explicit", "rubric_implicit", "likert_reference",
                                                "likert_simple"};

struct JudgeRanking {
    std::vector<KindRanking> kinds;             // those present, in kRankingOrder
    std::vector<RankingDifference> differences; // each two of `kinds`, earlier − later
    size_t requests = 0;
    size_t failed = 0;
    int resamples = 0;
    uint64_t cacheHits = 0;
    int64_t promptTokens = 0;
    int64_t completionTokens = 0;
    double seconds = 0.0;
    std::vector<RankedItem> items; // one per request, in the requests' order
};

// The metrics of outcomes already had (`items[i]` the outcome of `requests[i]`; the same
// size): what measureJudgeRanking computes once the replies are in. The bootstrap draws
// `resamples` resamples of the questions, deterministic for `seed`. An explicit answer's
// value is judge::explicitScore over its item requests' weights and verdicts (the reward's
// own aggregation), so it expects what readJudgeData guarantees: each rubric_explicit
// request's weight finite and not 0, each explicit answer's weights with a positive sum,
// and an ok item's judged verdict within 0–1. Throws std::invalid_argument when the sizes
// differ, a weight is not finite or is 0, an explicit answer has no positive weight, or an
// ok verdict lies outside 0–1.
JudgeRanking rankJudge(const std::vector<RankedRequest> &requests, const std::vector<RankedItem> &items,
                       int resamples = 2000, uint64_t seed = 1);

// Sends every request through `client` as the judge rewards do (rewardRequest with the
// kind's schema; without G-Eval's logprobs), in batches of `batch` (`progress(done,
// total)` after each), reads each reply as the reward reads it (parseRubricItemReply in
// binary mode, parseRatingReply) and ranks the answers (rankJudge). Failed or unreadable
// replies are counted in `failed`. Any thread; blocks until every reply is in or failed.
JudgeRanking measureJudgeRanking(const JudgeClient &client, const std::vector<RankedRequest> &requests,
                                 size_t batch = 64,
                                 const std::function<void(size_t done, size_t total)> &progress = {},
                                 int resamples = 2000, uint64_t seed = 1);

} // namespace rwb::judge
