#pragma once

// The synthetic data generators behind `rwb data synth`, one per built-in task that has
// one (tasks/synthesizers.cpp lists them). A generator reads its own options from the
// command line beside the shared --n, --seed, --split and --out.

#include "cli.h"

#include "data/datasplit.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rwb::cli {

struct Synthesizer {
    std::string task;                 // the task's name
    std::vector<std::string> options; // its own options, without "--"
    // Writes n records of `split` from `seed` to --out (standard output when absent).
    std::function<int(const Args &args, uint64_t n, uint64_t seed, data::DataSplit split)> run;
};

const std::vector<Synthesizer> &synthesizers();

// A whole number option; UsageError naming it when it is not one or exceeds `max`.
uint64_t parseCount(const std::string &option, const std::string &value, uint64_t max);

} // namespace rwb::cli
