#pragma once

#include <string>
#include <vector>

namespace rwb::cli {

// Each takes the arguments after its command word ("reward", "eval", "bench",
// "tokenizer") and returns the process exit code. They print errors themselves.
int rewardCommand(const std::vector<std::string> &args);
int evalCommand(const std::vector<std::string> &args);
int benchCommand(const std::vector<std::string> &args);
int tokenizerCommand(const std::vector<std::string> &args);

} // namespace rwb::cli
