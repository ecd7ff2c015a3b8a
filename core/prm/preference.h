#pragma once

// Preference pairs of reasoning steps for the process reward model (ProRAG §3.2): two
// sibling steps of an MCTS tree — two actions from the same state (question plus the steps
// before) — and the labels that say which is better. Without Qt or libtorch: the run
// store keeps pairs and labels (schema 7), `rwb prm` makes, labels, exports and imports
// them, the annotation view shows them, and the PRM trainer reads them. docs/prm.md.

#include "mcts/searchrecord.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::prm {

// Which step a label prefers. Skip: seen and passed over (a person who could not decide
// for now); it labels nothing and counts in no agreement.
enum class Choice { A, B, Tie, Skip };

// "a", "b", "tie", "skip" (the store's and the files' spelling).
const char *choiceName(Choice choice);
// The inverse; false for any other text.
bool parseChoice(std::string_view text, Choice &choice);

// Who gave a label.
//   tree    the search's values (Q of each step): automatic, annotator = "tree"
//   judge   an LLM judge through the judge client: annotator = the judge's model
//   human   a person in the annotation view: annotator = the name they chose
//   import  a label that came with imported pairs: annotator = the file's name
enum class Source { Tree, Judge, Human, Import };
const char *sourceName(Source source);
bool parseSource(std::string_view text, Source &source);

// One pair. Step A and step B are in a random order fixed when the pair is made (so that
// neither place stands for "better"); the values are the tree's at that time.
struct StepPair {
    int64_t id = 0;          // the store's (0 before it is stored)
    std::string set;         // the pair set it belongs to ("mcts run 3", an imported file's name)
    int64_t treeId = 0;      // the MCTS tree it came from (0: imported)
    std::string questionId;
    std::string question;
    std::string gold;        // the gold answer ("" when unknown)
    std::vector<std::string> history; // the steps before, root first, each a whole step block (retrievals included)
    int parentNode = -1;     // the state's node in the tree (-1: imported)
    int nodeA = -1, nodeB = -1;
    std::string stepA, stepB;
    double valueA = 0, valueB = 0; // Q of each step in the tree (0 for imported pairs without)
    int visitsA = 0, visitsB = 0;  // N of each step (0: unknown)
    std::string origin = "tree";   // "tree" (made from the tree), "manual" (a person picked the siblings), "import"

    // The text before the steps as DPO exports write it: the question, a blank line, the
    // history steps as they follow one another.
    std::string context() const;
};

// One label of one pair.
struct Label {
    int64_t id = 0;          // the store's
    int64_t pairId = 0;
    Source source = Source::Human;
    std::string annotator;
    Choice choice = Choice::Skip;
    std::string reason;
    std::string created;     // ISO 8601 UTC, set by the store
};

// How pairs are drawn from a tree.
struct PairOptions {
    // Both steps were visited at least this often (an unvisited step's Q is no estimate).
    int minVisits = 1;
    // |Q_A − Q_B| ≥ margin.
    double margin = 0.2;
    // At most this many pairs under one state: the candidates with the largest |ΔQ| first.
    int maxPerParent = 2;
    // Orders A and B (a hash of the seed, tree and nodes): the same seed gives the same pairs.
    uint64_t seed = 1;
};

// The sibling pairs of `record`'s tree: for every state with two or more children, the
// pairs of children with different step texts, both visited ≥ minVisits, whose Q differ by
// ≥ margin, the largest differences first, at most maxPerParent. In the tree's node order.
std::vector<StepPair> siblingPairs(const mcts::SearchRecord &record, const PairOptions &options,
                                   int64_t treeId = 0, const std::string &set = {});

// The pair of two nodes a person picked in the tree viewer (origin "manual"; A is `nodeA`).
// Throws std::invalid_argument when the nodes are not distinct siblings.
StepPair manualPair(const mcts::SearchRecord &record, int nodeA, int nodeB, int64_t treeId = 0,
                    const std::string &set = {});

// The tree's label of a pair: the step with the larger Q, or Tie when the values differ by
// less than `margin`. Source Tree, annotator "tree", reason "Q 0.83 vs 0.21 (N 6 vs 3)".
Label treeLabel(const StepPair &pair, double margin);

// ---- files ----

// One exported line: {"id", "prompt", "chosen", "rejected"} (TRL's preference form; for
// a DPO trainer) plus what a re-import needs: "question_id", "question", "gold",
// "history", "chosen_value", "rejected_value", "chosen_visits", "rejected_visits",
// "source", "annotator", "reason". Ties and skips are not written.
std::string dpoLine(const StepPair &pair, const Label &label);
// TRL's stepwise supervision form, one line per side of the pair:
// {"prompt", "completions": [step], "labels": [true|false]} (the prompt as in dpoLine; the
// history is in the prompt, so each line holds the one step judged) plus the same extra
// fields and "pair_id". Two lines for a pair labelled A or B; none for a tie or a skip.
std::vector<std::string> stepwiseLines(const StepPair &pair, const Label &label);

// What an import read: the pairs (set = `set`, origin "import", ids 0) and one label per
// pair (index-aligned; the chosen step in A or B by a fixed coin, a hash of the texts;
// source Import unless the line names another, annotator the line's
// or `annotatorDefault`).
struct ImportedPairs {
    std::vector<StepPair> pairs;
    std::vector<Label> labels;
    size_t lines = 0;
    size_t unpaired = 0; // stepwise lines with no opposite line to pair with
};
// Reads either form (told apart line by line: "chosen" / "rejected" or "completions" /
// "labels"). A line without "question" takes its prompt as the question; without
// "history", none. Stepwise lines pair up when they share the prompt and every completion
// but the last, one labelled true and one false (each line used once, in file order).
// Throws data::InputException naming the file, line and field.
ImportedPairs readPreferenceFile(const std::string &path, const std::string &set);
ImportedPairs parsePreferenceText(std::string_view text, const std::string &source, const std::string &set);

} // namespace rwb::prm
