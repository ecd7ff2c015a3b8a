#pragma once

#include "tasks/legalqa/legalquestion.h"
#include "tasks/legalqa/legaloutput.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::eval {

// A value of a slot found in an answer.
struct ValueMention {
    std::string slot;
    std::string value; // the normalized text found ("60日以内")
    ByteSpan span;     // where, in the answer's bytes
};

// What became of one reference fact.
enum class FactVerdict {
    Stated,       // its value occurs in the answer, and no other value of its slot does
    Missing,      // neither its value nor another value of its slot occurs
    Contradicted, // another value of its slot occurs (whether or not its own does too)
};

struct FactGrade {
    data::LegalFact fact;
    FactVerdict verdict = FactVerdict::Missing;
    bool stated = false; // its value occurs (counts for coverage even when contradicted)
    ByteSpan span;       // the first occurrence of its value, when stated
    std::vector<ValueMention> contradictions; // the other values of its slot that occur
};

// The exact reference grade of one answer (the second paper's coverage and consistency,
// decided from the known facts instead of by an LLM judge).
struct LegalGrade {
    // 1 when every reference fact is stated, 0.5 when some are, 0 when none is (the
    // paper's full / partial / no coverage). No reference facts: 1.
    double coverage = 0.0;
    // 0 when the answer contradicts a reference fact, else 1 (1 − contradiction).
    double consistency = 1.0;
    size_t stated = 0;
    std::vector<FactGrade> facts;             // one per reference fact, in order
    std::vector<ValueMention> contradictions; // every contradicting mention, in text order
};

// Grades answers against reference facts.
//
// Comparison form: the answer and every value are compared after text::normalize (NFKC,
// white space removed; applied per character with its combining marks, so that each
// normalized character maps back to bytes of the answer), with commas between digits
// removed (1,000円 = 1000円) and ヶ / ヵ / カ / ケ / 箇 before 月 after a digit read as か
// (3ヶ月以内 = 3か月以内). Numbers must be Arabic digits (full-width ones fold by NFKC);
// kanji numerals (三十日) are not recognised.
//
// Stated: the fact's normalized value occurs in the normalized answer, and, where the value
// starts or ends with a digit, the neighbouring character is not a digit (so 30日以内 is
// not found in 130日以内).
//
// Contradicted: for a slot of the reference facts, the answer mentions a value of that
// slot that is not the value of any reference fact. A value of a slot is one of the
// universe's values for it, or any number written in the shape of one (the universe's
// deadline 30日以内 makes 31日以内 a deadline too: its digits replaced, the rest the same).
// A mention inside a longer mention of another value (30万円 inside 30万円以下の過料, 1年
// inside 1年ごと) does not count; neither does a mention equal to any reference fact's
// value, of whatever slot (a value two slots share). So an answer that adds, beside the
// reference facts, another true value of a reference slot from elsewhere in the corpus is
// graded as contradicting: the synthetic reference answers state every value of their
// slots that the question asks for, and nothing else.
//
// The grader is immutable after construction; grade() may be called from several threads.
class LegalReferenceGrader {
public:
    explicit LegalReferenceGrader(const data::SlotUniverse &universe);
    ~LegalReferenceGrader();
    LegalReferenceGrader(const LegalReferenceGrader &) = delete;
    LegalReferenceGrader &operator=(const LegalReferenceGrader &) = delete;

    LegalGrade grade(std::string_view answer, const std::vector<data::LegalFact> &reference) const;

private:
    struct Impl;
    std::unique_ptr<const Impl> m_impl;
};

// `text` in the grader's comparison form (above), as ValueMention::value holds a value
// found: "3ヶ月以内" → "3か月以内", "1,000円" → "1000円". Two values are the same for the
// grader when their comparison forms are equal.
std::string comparisonForm(std::string_view text);

// The paper's joint score: the mean of citation F1, coverage and consistency.
double legalJointScore(double citationF1, double coverage, double consistency);

} // namespace rwb::eval
