#pragma once

// The SHA-256 of a text, as 64 lower-case hex digits: the key of the judge's cache and of
// the remote reward's (OpenSSL's libcrypto).

#include <string>
#include <string_view>

namespace rwb::util {

std::string sha256Hex(std::string_view text);

} // namespace rwb::util
