#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rwb::reward::library {

// A number as `numeric` reads it from text.
struct FoundNumber {
    double value = 0.0;
    std::string written; // as it stands in the text after NFKC ("-1,234.5", "3/4", "12%")
};

// The last number in `text` (docs/rewards.md, "numeric"). The text is brought to NFKC
// first, which makes full-width digits, signs and separators ASCII. A number is an
// optional sign (+, -, U+2212 −) that does not follow a letter or digit; digits, which
// may be grouped in threes by commas ("1,234,567"); an optional decimal part (".5" also
// alone); an optional exponent ("e-3"); or a fraction of two whole numbers ("3/4", a zero
// denominator not read as one). A '%' after it is part of what is written but does not
// change the value ("50%" reads 50); currency signs and units around it are skipped as
// any other text. None when the text holds no number. Thread-safe.
std::optional<FoundNumber> lastNumber(std::string_view text);

} // namespace rwb::reward::library
