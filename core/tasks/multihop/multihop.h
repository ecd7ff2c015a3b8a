#pragma once

// The synthetic multi-hop QA task of the fourth paper (ProRAG, §3.1): a fictional
// knowledge base in Japanese — people, organizations, cities and countries with
// attributes and relations — written out as one passage per entity for the local
// retriever, and 2–4-hop questions whose answers need chained lookups ("ミナト精機の創業者の
// 出身地の市長は誰ですか。": the founder, then where the founder was born, then that city's
// mayor), each with its gold answer and its gold chain of steps (the sub-query of each
// hop, the passage that answers it and the sub-answer). The chains are SFT targets and
// analysis material; the policy never sees them. docs/data.md, "Multi-hop questions".

#include "data/datasplit.h"
#include "data/jsonl.h"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::data {

// The task name, as configs and JSONL lines write it.
inline constexpr std::string_view kMultihopTask = "multihop";

enum class EntityKind { Person, Organization, City, Country };
const char *toString(EntityKind kind); // "person", "organization", "city", "country"

// A relation from one entity to another, or an attribute (a literal value).
struct KbFact {
    std::string relation; // as questions write it: "創業者", "出身地", "設立年"
    std::string value;    // the other entity's name, or the attribute's value ("1987年")
    int target = -1;      // the other entity's index; -1 for an attribute
};

struct KbEntity {
    std::string id;   // "P017", "O003", "C012", "N002": kind letter and index within kind
    EntityKind kind = EntityKind::Person;
    std::string name; // unique in the knowledge base
    std::vector<KbFact> facts;
    // The passage that states every fact of the entity ("kb-P017").
    std::string passageId() const { return "kb-" + id; }
    const KbFact *fact(std::string_view relation) const;
};

// A passage the retriever returned for a sub-query (`rwb retrieve annotate --chain`).
struct RetrievedPassage {
    std::string id;
    std::string title;
    std::string text;
};

// One hop of a gold chain: what is looked up, where it is written, what it gives.
struct MultihopStep {
    std::string entity;    // the entity looked up (its name)
    std::string relation;  // "創業者"
    std::string subquery;  // keywords for the retriever: "ミナト精機 創業者"
    std::string passageId; // the passage that states it
    std::string subanswer; // "ミナト精機の創業者は朝霧 玲奈です。"
    std::string value;     // "朝霧 玲奈"
    // The top-k passages the retriever returns for `subquery` (best first): the frozen
    // retrieval of the hop's SFT target. Empty until annotated.
    std::vector<RetrievedPassage> retrieved;
};

struct MultihopQuestion {
    std::string id;       // "<split>-<index, 6 digits>"
    std::string question; // "ミナト精機の創業者の出身地はどこですか。"
    std::string answer;   // the last hop's value
    int hops = 0;         // 2 to 4
    std::vector<MultihopStep> chain;
    std::vector<std::string> goldPassages; // the chain's passages, in order, without repeats
    DataSplit split = DataSplit::Train;
    // Read from a file only:
    size_t line = 0;            // 1-based
    bool hasCompletion = false; // the line has "completion" (an evaluation output)
    std::string completion;
    // A trajectory to fine-tune on instead of the gold chain ("target": rejection-sampled
    // trajectories, rwb prm rft), and the indexes of its step blocks (task::stepBlocks)
    // that are context only, with no loss ("context_steps": steps the PRM scored below
    // the threshold). Empty: SFT's target is the gold chain.
    std::string target;
    std::vector<int> contextSteps;
};

struct MultihopOptions {
    uint64_t seed = 1;
    // Entities of each kind (the knowledge base has this many passages in all): people
    // 6–330, organizations 6–100, cities from `countries` to 160, countries 2–24.
    size_t people = 160;
    size_t organizations = 48;
    size_t cities = 36;
    size_t countries = 8;
    // Percent of the organizations and people that questions start from, held out for
    // validation and for test (see MultihopGenerator).
    unsigned valPercent = 15;
    unsigned testPercent = 15;
};

// Builds the knowledge base for `options` and draws questions from it.
//
// Every person was born in a city, works for an organization and has a birth year and an
// occupation; every organization has a founder and a representative (people), a head
// office (a city), a founding year and a line of business; every city belongs to a
// country and has a mayor and a population; every country has a capital and an official
// language. Names are fictional and unique; some are near-duplicates on purpose (ミナト精機
// and ミナト精工, two people sharing a family name), so that retrieval is not trivial.
//
// A question starts from a person or an organization and follows 2–4 relations, the last
// of which may be an attribute; every hop is a distinct entity (no chain returns to where
// it was). Splits: the starting entities are split by index — the last testPercent %
// are test, the val block before them — so no test question starts where a training
// question does; the passages are shared (a retriever indexes the whole base).
//
// Deterministic: the base is a pure function of the options; question i of a split is a
// pure function of (options, split, i) (util::Rng streams, integer draws). Immutable after
// construction; const methods may be called from several threads.
class MultihopGenerator {
public:
    // Throws std::invalid_argument naming the option out of range.
    explicit MultihopGenerator(const MultihopOptions &options);
    ~MultihopGenerator();
    MultihopGenerator(const MultihopGenerator &) = delete;
    MultihopGenerator &operator=(const MultihopGenerator &) = delete;

    const MultihopOptions &options() const;
    const std::vector<KbEntity> &entities() const;
    // The passage of entity i: {title, text}.
    std::string passageTitle(size_t i) const;
    std::string passageText(size_t i) const;

    // Question `index` of `split` (any index: the same question every time).
    MultihopQuestion question(DataSplit split, uint64_t index) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_d;
};

// The base as corpus JSONL (retrieval/corpus.h): {"id": "kb-P017", "title", "text",
// "meta": {"kind", "entity", "name"}}. Returns the passages written.
size_t writeMultihopCorpusJsonl(const MultihopGenerator &generator, std::ostream &out);

// One question as a JSONL line: {"id", "task": "multihop", "question", "answer", "hops",
// "chain": [{"entity", "relation", "subquery", "passage", "subanswer", "value"}],
// "gold_passages", "split"}.
std::string toJsonLine(const MultihopQuestion &question);

// Reads one line: "id", "question" and "answer" are required (the answer is what search
// values and metrics compare against: a line without one is an error, not a question
// with an empty gold), "chain" (with "retrieved" per hop), "gold_passages", "hops",
// "split" and "completion" are optional. Throws InputException {source, lineNo, reason
// naming the field}.
MultihopQuestion parseMultihopQuestionLine(std::string_view line, const std::string &source, size_t lineNo);
// Every line of a JSONL file (blank lines skipped); with `skipped`, bad lines are
// recorded there instead of thrown.
std::vector<MultihopQuestion> readMultihopQuestions(const std::string &path, std::vector<InputError> *skipped = nullptr);

// Questions 0 … n−1 of `split`, one line each; returns n.
size_t writeMultihopQuestionsJsonl(const MultihopGenerator &generator, DataSplit split, size_t n,
                                   std::ostream &out);

} // namespace rwb::data
