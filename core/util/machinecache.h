#pragma once

// Small JSON files that keep a timed check's result per machine (model/precision.h's
// bf16 check, model/threads.h's thread check), so that it runs once, not at every start.
// A file is {"key": "<what the result depends on>", "<field>": number, …}; a file for
// another key (another CPU, core count or libtorch) or with a field that is not a number
// reads as no cache, and the check runs again.

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rwb::util {

// $<overrideVariable> when set, else $XDG_CACHE_HOME/reward-workbench/<fileName>, else
// ~/.cache/reward-workbench/<fileName>; empty when none of them is set.
std::filesystem::path machineCachePath(const char *overrideVariable, const std::string &fileName);

// The values of `fields`, in that order, when `path` holds `key`; nullopt otherwise.
std::optional<std::vector<double>> readMachineCache(const std::filesystem::path &path, const std::string &key,
                                                    const std::vector<std::string> &fields);

// Replaces the file in one rename (processes side by side see the old or the new one);
// a cache that cannot be written only costs the check again, so failures are ignored.
void writeMachineCache(const std::filesystem::path &path, const std::string &key,
                       const std::vector<std::pair<std::string, double>> &values);

} // namespace rwb::util
