#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rwb::tokenizer {

// GPT-2's byte-level alphabet, as Hugging Face's ByteLevel pre-tokenizer and decoder use
// it: every byte is shown as one printable code point. Bytes 0x21–0x7E, 0xA1–0xAC and
// 0xAE–0xFF stand for themselves; the other 68 bytes (0x00–0x20, 0x7F–0xA0, 0xAD), in
// increasing order, become U+0100, U+0101, …, U+0143 (space → U+0120 'Ġ', newline → U+010A 'Ċ').

// The code point that stands for `byte`.
char32_t byteToChar(uint8_t byte);

// The byte that `c` stands for, or -1 when `c` is not in the alphabet.
int charToByte(char32_t c);

// The UTF-8 of the byte-level characters of `bytes` (one character per byte).
std::string bytesToByteLevel(std::string_view bytes);

// The bytes that a byte-level string stands for. Characters outside the alphabet (a
// hand-made vocabulary may have some) are kept as their own UTF-8; ill-formed UTF-8 is
// kept byte for byte. Never fails.
std::string byteLevelToBytes(std::string_view byteLevelText);

} // namespace rwb::tokenizer
