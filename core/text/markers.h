#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rwb::text {

// The 19 legal-entity markers of the first paper (fig. 5: 株式会社, 有限会社, …,
// (株), (有), (合)), normalized with normalize(), longest first.
const std::vector<std::u32string> &legalEntityMarkers();

struct StrippedText {
    std::u32string text;                 // what is left
    std::vector<std::u32string> removed; // each occurrence removed, in the order removed
};

// Removes every occurrence of every marker from an already normalized string,
// longest markers first (so 信用保険会社 goes before any shorter marker could cut it).
// A marker that the removal of another one brings together is removed too.
StrippedText stripMarkers(std::u32string_view normalized);

} // namespace rwb::text
