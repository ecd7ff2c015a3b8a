#pragma once

#include <string>

namespace rwb::util {

// Decodes standard base64 (RFC 4648 alphabet, padding optional) into `out`. False on any
// other character or an impossible length; `out` is then unspecified.
bool decodeBase64(const std::string &text, std::string &out);

} // namespace rwb::util
