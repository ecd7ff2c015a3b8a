#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::eval {

// A range of bytes [begin, end) of a completion (UTF-8), for highlighting in a GUI.
struct ByteSpan {
    size_t begin = 0;
    size_t end = 0;
};

// Whether a completion has the second paper's output format (appendix D.2), and if not,
// the first rule it breaks, checked in this order:
//
//   <reasoning>R</reasoning> <answer>A</answer> <citation><law_code>N</law_code>…</citation>
//
//   1. MissingReasoning / MissingAnswer / MissingCitation: the block's opening or closing
//      tag does not occur.
//   2. DuplicateTag: one of the six block tags occurs more than once.
//   3. WrongOrder: a block's closing tag comes before its opening tag.
//   4. NestedTag: a block starts inside another (<answer>…<citation>…</citation>…</answer>).
//   5. WrongOrder: the blocks are not in the order reasoning, answer, citation.
//   6. NestedTag: a <law_code> or </law_code> tag outside the citation block.
//   7. TextOutsideBlocks: anything but white space before the reasoning, between the
//      blocks or after the citation.
//   8. MalformedCitation / NonIntegerCode, whichever comes first in the citation: the
//      citation holds anything but <law_code>…</law_code> elements and white space (other
//      text, an unpaired or nested <law_code>) / an element's content, white space around
//      it removed, is not 1 to 18 ASCII digits (a sign, a fraction, full-width digits,
//      empty).
//
// Tags are exactly these lower-case strings, without attributes or spaces inside the angle
// brackets; "<" followed by anything else is text. White space is Unicode White_Space
// (ASCII white space, U+3000, …). R and A may be anything without the eight tags, empty
// included. A citation without elements (<citation></citation>) holds the format: it cites
// nothing. Repeated codes hold it too; they are counted in duplicateCitations.
enum class LegalFormat {
    Ok,
    MissingReasoning,
    MissingAnswer,
    MissingCitation,
    DuplicateTag,
    WrongOrder,
    NestedTag,
    TextOutsideBlocks,
    MalformedCitation,
    NonIntegerCode,
};

// "ok", "missing_reasoning", …, "non_integer_code": stable names for logs, JSON and the CLI.
std::string_view legalFormatName(LegalFormat format);

// One block as found (leniently, whether or not the format holds).
struct LegalBlock {
    bool found = false; // the opening tag occurs
    ByteSpan outer;     // from "<" of the opening tag to ">" of the closing tag (or where the content ends)
    ByteSpan inner;     // the content between the tags
};

// One <law_code>N</law_code> element of the citation block whose content is an integer.
struct CitedCode {
    int64_t code = 0;
    ByteSpan span;          // the whole element, tags included
    bool duplicate = false; // the same code was cited earlier
};

// A completion taken apart. Extraction is lenient, so that a reward or a view can use the
// parts of an output whose format does not hold: each block is read from its first opening
// tag to the first closing tag after it, or (when that is missing, as in a truncated
// output) to the next opening tag of another block or the end; codes are read from the
// citation block only.
struct LegalOutput {
    LegalFormat format = LegalFormat::Ok;
    ByteSpan problem; // where the format first breaks (empty span at 0 when it holds)
    LegalBlock reasoning, answer, citation;
    std::string reasoningText; // the reasoning's content, white space trimmed at both ends
    std::string answerText;    // the answer's content, the same way
    std::vector<CitedCode> citations;   // every integer element, in order, repeats included
    std::vector<int64_t> citedCodes;    // the cited set: each code once, in order of first citation
    size_t duplicateCitations = 0;      // citations.size() − citedCodes.size()
    std::vector<ByteSpan> invalidCodes; // <law_code> elements whose content is not an integer

    bool formatOk() const { return format == LegalFormat::Ok; }
};

// Parses a completion (UTF-8; invalid bytes are text). Never throws. Thread-safe.
LegalOutput parseLegalOutput(std::string_view completion);

} // namespace rwb::eval
