#pragma once

#include "tasks/extraction/companyname.h"
#include "data/datasplit.h"

#include <string>
#include <string_view>
#include <vector>

namespace rwb::util {
class Rng;
}

namespace rwb::data {

// The parts fictional company names are built from: name stems (kanji, hiragana,
// katakana, transcribed English, Latin letters) and industry words with their legal-entity
// markers. Every stem belongs to exactly one split, decided by a hash of the stem
// itself (about 80 % train, 10 % val, 10 % test), so a company of one split never
// appears in another, whatever the seed or the number of e-mails.
//
// Immutable after construction; builtin() is safe to use from several threads.
class CompanyCatalog {
public:
    // The built-in catalogue (built on first use).
    static const CompanyCatalog &builtin();

    // The split a stem belongs to: a fixed function of the stem's UTF-8 bytes.
    static DataSplit splitOfStem(std::string_view stem);

    // Every stem of a split, in catalogue order.
    std::vector<std::string> stems(DataSplit split) const;
    // Every stem of every split.
    size_t stemCount() const;

    // What a draw may return.
    enum class Draw {
        Any,      // any kind of organization (mostly businesses)
        Business, // a business (shops, makers, agencies): what an individual writes to
        Carrier,  // a business that ships and stores (物流, 運輸)
    };

    // A company whose stem is in `split` and not among `avoidStems` (the companies
    // already in the e-mail). Throws std::runtime_error if the split has no stem left.
    CompanyName draw(util::Rng &rng, DataSplit split, Draw what, const std::vector<std::string> &avoidStems) const;

    CompanyCatalog();

private:
    struct Stem {
        std::string text, romaji, english, initials;
        StemScript script;
    };
    struct Industry {
        std::string text, romaji, english, abbr, initials;
        OrgKind kind;
        unsigned scripts; // bit mask of StemScript values that fit
        unsigned weight;
    };

    const Stem &drawStem(util::Rng &rng, DataSplit split, StemScript script,
                         const std::vector<std::string> &avoidStems) const;
    void fillMarker(util::Rng &rng, CompanyName &name, const Industry &industry) const;

    std::vector<Stem> m_stems;
    // m_pools[split][script]: indices into m_stems.
    std::vector<size_t> m_pools[3][5];
    std::vector<Industry> m_industries;
};

} // namespace rwb::data
