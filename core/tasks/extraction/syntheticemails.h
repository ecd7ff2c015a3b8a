#pragma once

#include "data/datasplit.h"
#include "tasks/extraction/extractionrecord.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace rwb::data {

// One generated e-mail: the dataset line and what went into it (for tests and statistics).
struct SyntheticEmail {
    // id ("train-000001"), task, sender_email, email_text and gold; no completion.
    ExtractionRecord record;
    // The stem of every company the e-mail uses or hints at: the sender's (also when
    // only its mail domain shows it), the recipient's and every third party's.
    std::vector<std::string> stems;
    // The recipient's company as the greeting writes it; "" when the greeting names none.
    std::string recipientCompany;
    // The recipient's company in its most detailed form when the e-mail (header or body)
    // names it anywhere (greeting, quoted block, body); "" when it does not.
    std::string recipientNamed;
    // Every other company the e-mail names, neither the sender's nor the recipient's
    // (third parties, carriers), each in its most detailed form, in the order drawn.
    std::vector<std::string> otherCompanies;
    // What kind of e-mail it is: "business", "reply", "inline", "forward", "announcement",
    // "recruiting", "casual" (the sender's company is stated) or "customer", "internal",
    // "personal_forward", "friend" (gold 不明).
    std::string scene;

    // The dataset line as `rwb data synth` writes it: `record` with the optional
    // "recipient_company" (recipientNamed) and "other_companies" fields filled in, and
    // with `withReasoning` also "reasoning" (templatedReasoning()).
    ExtractionRecord datasetRecord(bool withReasoning = false) const;
    // A templated thinking trace that reaches the gold the way the first paper's GPT-4.1
    // traces do (its fig. 4: from the input and the answer), from what the generator knows:
    // the sender, the recipient's company and the third parties (each ruled out), then
    // how the sender's company is written, or that it is not, and the answer.
    std::string templatedReasoning() const;
};

// Fictional Japanese business e-mails for the company-extraction task of the first
// paper, with the variety of real ones: a sender header (display name and address, or
// an address alone; domains that romanize or abbreviate the company, or free mail),
// greetings that name the recipient's company, third parties in the body, forwarded
// and quoted blocks, signatures, legal-entity markers before and after the name, (株) ㈱
// （株）, full-width letters, English names beside Japanese ones, and about 15 % of
// e-mails that state no sender company (gold 不明).
//
// The gold is the most detailed form of the sender's company name in the e-mail, copied
// as written (see goldRuleViolation), and every e-mail is checked against that rule
// before it is returned. Company stems are split by CompanyCatalog::splitOfStem, so no
// company of one split appears in another.
//
// Deterministic: e-mail i is a pure function of (seed, split, i), the same on every
// platform and run; generating n e-mails gives the first n of any longer run.
// The generator is immutable; its methods may be called from several threads.
class SyntheticEmailGenerator {
public:
    // Longest email_text, in code points.
    static constexpr size_t kDefaultMaxChars = 600;

    SyntheticEmailGenerator(uint64_t seed, DataSplit split, size_t maxChars = kDefaultMaxChars);

    // E-mail number `index` (0-based; its id is idFor(split, index)).
    SyntheticEmail email(size_t index) const;

    // E-mails 0 … n-1. `progress(done, n)`, if given, is called on the calling thread
    // after every 1000 e-mails and at the end; when it returns false, generation stops and
    // the e-mails made so far are returned.
    std::vector<SyntheticEmail> generate(size_t n, const std::function<bool(size_t, size_t)> &progress = {}) const;

    // "train-000001" for index 0 of the train split (1-based, at least six digits).
    static std::string idFor(DataSplit split, size_t index);

    uint64_t seed() const { return m_seed; }
    DataSplit split() const { return m_split; }

private:
    uint64_t m_seed;
    DataSplit m_split;
    size_t m_maxChars;
};

// Writes e-mails 0 … n-1 of `generator` to `out` as dataset lines (toJsonLine without
// "completion", one a line): what `rwb data synth` and the workbench write. `progress(done,
// n)`, if given, is called on the calling thread after every `every` e-mails and at the end;
// when it returns false, writing stops. Returns how many lines were written. Stream errors
// are left to the caller to check.
// With `withReasoning` each line also has its "reasoning" (SyntheticEmail::templatedReasoning).
size_t writeSyntheticJsonl(const SyntheticEmailGenerator &generator, size_t n, std::ostream &out,
                           const std::function<bool(size_t, size_t)> &progress = {}, size_t every = 1000,
                           bool withReasoning = false);

} // namespace rwb::data
