#pragma once

#include "data/datasplit.h"
#include "tasks/legalqa/legalcorpus.h"
#include "tasks/legalqa/legalquestion.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace rwb::data {

// The sizes of a synthetic body of law. Every option changes the corpus, and with it every
// question: generate all splits of a dataset with the same options.
struct LegalSynthOptions {
    uint64_t seed = 1;
    // Statutes, each a fictional field of regulation (at most kMaxStatutes, at least 3).
    size_t statutes = 16;
    // Sections per statute, drawn uniformly in [minSections, maxSections] (12 … 30).
    size_t minSections = 15;
    size_t maxSections = 24;
    // Percent of the statutes held out for validation and for test (each at least one
    // statute); the rest are train. See SyntheticLawGenerator.
    unsigned valPercent = 15;
    unsigned testPercent = 15;
};

// A fictional body of Japanese law and questions about it, for the legal-QA task of the
// second paper: statutes of 12–30 numbered sections (第1条 …) whose rules state concrete
// facts in slots (deadlines, amounts, parties, conditions, exceptions), each section with
// a unique integer law code; and questions answered by one section (like the paper's CCL
// split) or by two or three (like its Tax split), each with a reference answer that states
// the facts of the cited sections plainly, the gold law codes and the facts themselves.
//
// Some sections are deliberately alike: within a statute, near-duplicates (two or three
// 変更の届出 sections that differ in the situation and the deadline, 事故の報告, 帳簿の保存,
// two kinds of 営業保証金) and special rules (特例: 「…第8条の規定の適用については、同条中
// 「30日以内」とあるのは、「60日以内」とする。」) that amend another section; across
// statutes, every kind of rule recurs with other words and values.
//
// Splits: statute k (0-based, in corpus order) is train for k < nTrain, val for the next
// nVal, test for the rest, with nVal = max(1, round(statutes·valPercent/100)), nTest
// likewise, nTrain = statutes − nVal − nTest. The statutes themselves are drawn by the
// seed, so which fields of law are held out changes with it. A question of one split only
// cites sections of that split's statutes, so no section a training question uses is
// cited by a validation or test question. The corpus holds all splits (a retriever indexes
// all of it).
//
// Deterministic: the corpus is a pure function of the options; question i of a split is a
// pure function of (options, split, i), the same on every platform and run (util::Rng,
// integer draws only), and generating n questions gives the first n of any longer run.
// The generator is immutable after construction; its methods may be called from several
// threads.
class SyntheticLawGenerator {
public:
    // How many statutes the phrase table can make.
    static size_t maxStatutes();

    // Builds the corpus (a few milliseconds). Throws std::invalid_argument naming the
    // option when one is out of range.
    explicit SyntheticLawGenerator(const LegalSynthOptions &options);
    ~SyntheticLawGenerator();
    SyntheticLawGenerator(const SyntheticLawGenerator &) = delete;
    SyntheticLawGenerator &operator=(const SyntheticLawGenerator &) = delete;

    const LegalSynthOptions &options() const;
    const LegalCorpus &corpus() const;
    // corpus().slotUniverse(): every value each slot takes, for the reference grader.
    const SlotUniverse &slotUniverse() const;
    // The split of a statute ("S03"); throws std::out_of_range for an unknown id.
    DataSplit splitOfStatute(const std::string &statuteId) const;

    // Question number `index` (0-based; its id is idFor(split, index)).
    LegalQuestion question(DataSplit split, size_t index) const;
    // Questions 0 … n-1. `progress(done, n)`, if given, is called on the calling thread
    // after every 1000 questions and at the end; when it returns false, generation stops
    // and the questions made so far are returned.
    std::vector<LegalQuestion> questions(DataSplit split, size_t n,
                                         const std::function<bool(size_t, size_t)> &progress = {}) const;

    // "train-000001" for index 0 of the train split (1-based, at least six digits).
    static std::string idFor(DataSplit split, size_t index);

private:
    struct Plan;
    std::unique_ptr<const Plan> m_plan;
};

// The corpus of `options` (SyntheticLawGenerator(options).corpus()).
LegalCorpus generateLegalCorpus(const LegalSynthOptions &options);

// Questions 0 … n-1 of `split` (generator.questions(split, n)).
std::vector<LegalQuestion> generateLegalQuestions(const SyntheticLawGenerator &generator, DataSplit split, size_t n);

// Writes every section as a JSON line (toJsonLine). Returns the number of lines; stream
// errors are left to the caller to check.
size_t writeLegalCorpusJsonl(const LegalCorpus &corpus, std::ostream &out);

// Writes questions 0 … n-1 of `split` as JSON lines (toJsonLine). `progress(done, n)`, if
// given, is called on the calling thread after every `every` questions and at the end; when
// it returns false, writing stops. Returns how many lines were written. Stream errors are
// left to the caller to check.
size_t writeLegalQuestionsJsonl(const SyntheticLawGenerator &generator, DataSplit split, size_t n, std::ostream &out,
                                const std::function<bool(size_t, size_t)> &progress = {}, size_t every = 1000);

// The completion SFT trains on, in the second paper's format (appendix D.2):
// "<reasoning>R</reasoning>\n<answer>A</answer>\n<citation><law_code>17</law_code><law_code>22</law_code></citation>"
// with R the question's reasoning (its titles' statute, section numbers and headings) and A
// its reference answer; the law codes in the question's order.
std::string legalTargetCompletion(const LegalQuestion &question);

} // namespace rwb::data
