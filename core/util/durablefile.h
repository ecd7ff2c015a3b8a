#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rwb::util {

// Writes `bytes` to `path` so that a crash or a power cut leaves either the old file or
// the whole new one: a temporary file beside it, written, fsync'ed, renamed over `path`,
// and the folder fsync'ed. Throws std::runtime_error naming the path and the system's
// reason (a full disk, no permission) when any step fails; the temporary is removed.
void writeFileDurably(const std::string &path, std::string_view bytes);

// Writes all of `size` bytes to `fd` (in pieces of at most 1 GiB: Linux writes at most
// about 2 GiB per call; EINTR retried). Throws std::runtime_error naming `path` and the
// system's reason (a full disk).
void writeAll(int fd, const void *data, size_t size, const std::string &path);

// Creates a new file beside `path` (same folder, so a rename over `path` is atomic) with a
// name no other writer uses, open for writing; `tmp` receives its name. Throws
// std::runtime_error naming `path` when none can be made.
int createTemporaryBeside(const std::string &path, std::string &tmp);

// fsync of a folder, so that a rename or a new file in it survives a crash. Best effort:
// some file systems refuse fsync on folders, which is not an error here.
void syncFolder(const std::string &folder);

} // namespace rwb::util
