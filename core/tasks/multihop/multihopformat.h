#pragma once

// The step format of the fourth paper (ProRAG §3.1) and its answer metrics, without Qt or
// libtorch: what the multi-hop task, the step-wise rollouts and the MCTS read.
//
// A trajectory is a sequence of hops and a final answer:
//
//   <step>…</step><subquery>…</subquery><retrieval>…</retrieval><subanswer>…</subanswer>
//   … (more hops) …
//   <step>…</step><answer>…</answer>
//
// The model writes <step> (its reasoning for the hop), <subquery> (keywords for the
// retriever) and <subanswer> (what the retrieved passages answer); the environment
// writes <retrieval>; the last <step> is followed by <answer>. White space between
// blocks is allowed; anything else outside the tags is not. docs/data.md, "Multi-hop
// questions".

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::task {

// The control tags, in the order a hop writes them.
inline constexpr const char *kStepTags[] = {"step", "subquery", "retrieval", "subanswer", "answer"};

struct TrajectoryHop {
    std::string step;
    std::string subquery;
    std::string retrieval;
    std::string subanswer;
};

struct Trajectory {
    std::vector<TrajectoryHop> hops;   // the hops whose four blocks are all there
    std::string finalStep;             // the <step> before <answer> ("" when none)
    std::optional<std::string> answer; // the <answer> block's text, trimmed
    bool wellFormed = false;           // the whole text follows the format
    std::string problem;               // why not: "expected <subanswer> at byte 212, found …"
};

// Reads a trajectory. Never throws: a text that breaks the format gives wellFormed false
// with the first problem, and the hops read before it (and an <answer> when one is there,
// wherever it is).
Trajectory parseTrajectory(std::string_view text);
// The step blocks of a trajectory as the tree search takes them, one action each: the text
// up to and including each </subanswer> or </answer>, in order (white space between
// blocks stays with the block after it); what follows the last such tag, when it is not
// only white space, is a last, unfinished block. Never throws.
std::vector<std::string> stepBlocks(std::string_view text);

// The form answers are compared in: NFKC, ASCII letters lower-cased, white space and
// punctuation removed (ASCII punctuation, the CJK punctuation block U+3000–U+303F but for
// the iteration marks 々 〆, full-width forms' punctuation, ・ and the quotation marks
// “”‘’). Prolonged sound marks (ー) are letters and stay.
std::u32string answerForm(std::string_view text);

// 1 when the answer forms are equal, else 0.
double exactMatch(std::string_view prediction, std::string_view gold);

// The answer's tokens for F1, in mixed segmentation (as Chinese reading-comprehension
// benchmarks score answers): after NFKC and lower-casing, a run of ASCII letters and
// digits is one token ("1975", "city"), every other character that answerForm keeps is a
// token of its own (Japanese has no spaces to split words on), white space and
// punctuation separate and are dropped. "1975年" → {1975, 年}.
std::vector<std::u32string> answerTokens(std::string_view text);

// F1 of the answers' tokens (answerTokens) as multisets (a token that occurs twice in
// both counts twice): P = overlap / |prediction|, R = overlap / |gold|, F1 = 2PR / (P + R).
// Both empty: 1; one empty: 0. Numbers are whole so that a wrong year or count is not
// worth most of a right one: with characters alone "2050年" against "2005年" scored 1.0
// and "1974年" against "1975年" 0.8 (docs/results.md); now 0.5 each (docs/data.md).
double answerF1(std::string_view prediction, std::string_view gold);
// The same with its precision and recall (0 when either side is empty).
struct AnswerOverlap {
    double precision = 0, recall = 0, f1 = 0;
};
AnswerOverlap answerOverlap(std::string_view prediction, std::string_view gold);

} // namespace rwb::task
