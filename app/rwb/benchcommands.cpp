#include "cli.h"
#include "commands.h"

#include "data/extractionrecord.h"
#include "reward/compositereward.h"
#include "reward/extraction.h"

#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace rwb::cli {

namespace {

// The target of issue 2: component evaluations per second on one thread.
constexpr double kRewardsTarget = 500000.0;

const char *const kBenchHelp = R"(rwb bench — benchmarks of the engine

Subcommands:
  rewards   component evaluations per second of partial + marker + exist, one thread
Run "rwb bench rewards --help" for its options.
)";

const char *const kRewardsHelp = R"(rwb bench rewards — reward throughput on one thread

Usage: rwb bench rewards [--input I.jsonl] [--seconds S]

  --input I.jsonl   completions to score (default: the bundled sample set)
  --seconds S       how long to measure each mode (default 2)

Scores every line with the composite partial + marker + exist, over and over, and
prints one JSON object. "evaluations_per_second" counts component evaluations
(3 per completion) with each e-mail prepared once and shared by its completions, as
in a GRPO group; every completion is extracted, normalized and stripped each time.
"uncached_evaluations_per_second" prepares the e-mail again for every completion.
Target: 500,000 evaluations per second.
)";

int rewards(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"input", "seconds"}, {"help"}});
    if (args.has("help")) {
        std::cout << kRewardsHelp;
        return kExitOk;
    }
    std::string input = args.value("input");
    if (input.empty()) {
        input = findResource("samples/company_samples.jsonl");
        if (input.empty())
            throw UsageError{"the bundled sample set was not found; pass --input"};
    }
    const double seconds = args.number("seconds", 2.0);
    if (!(seconds > 0.0))
        throw UsageError{"--seconds must be > 0"};
    const std::vector<data::ExtractionRecord> records = data::readExtractionJsonl(input).records;
    if (records.empty())
        throw data::InputException({input, 0, "no completions to score"});

    reward::RewardConfig config;
    config.components = {{"partial", 1.0}, {"marker", 1.0}, {"exist", 1.0}};
    const reward::CompositeReward composite(config, "bench");

    // One prepared prompt per e-mail, shared by its completions.
    std::vector<std::shared_ptr<reward::ExtractionPrompt>> prompts;
    for (const auto &r : records) {
        if (prompts.empty() || prompts.back()->emailText() != r.emailText ||
            prompts.back()->senderEmail() != r.senderEmail || prompts.back()->gold() != r.gold)
            prompts.push_back(std::make_shared<reward::ExtractionPrompt>(r.senderEmail, r.emailText, r.gold));
        else
            prompts.push_back(prompts.back());
    }

    using Clock = std::chrono::steady_clock;
    volatile double sink = 0.0;
    std::vector<double> values;
    auto measure = [&](bool cachedPrompts) {
        size_t completions = 0;
        const auto start = Clock::now();
        double elapsed = 0.0;
        do {
            for (size_t i = 0; i < records.size(); ++i) {
                const auto &r = records[i];
                const reward::ExtractionAnswer answer(r.completion, false);
                if (cachedPrompts) {
                    sink = sink + composite.score(*prompts[i], answer, values);
                } else {
                    const reward::ExtractionPrompt prompt(r.senderEmail, r.emailText, r.gold);
                    sink = sink + composite.score(prompt, answer, values);
                }
            }
            completions += records.size();
            elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        } while (elapsed < seconds);
        return std::make_pair(completions, elapsed);
    };
    const auto [n, t] = measure(true);
    const auto [nu, tu] = measure(false);
    const double perSecond = 3.0 * static_cast<double>(n) / t;
    nlohmann::ordered_json j;
    j["benchmark"] = "rewards";
    j["components"] = {"partial", "marker", "exist"};
    j["input"] = input;
    j["completions"] = records.size();
    j["threads"] = 1;
    j["evaluations"] = 3 * n;
    j["seconds"] = t;
    j["evaluations_per_second"] = perSecond;
    j["completions_per_second"] = static_cast<double>(n) / t;
    j["uncached_evaluations_per_second"] = 3.0 * static_cast<double>(nu) / tu;
    j["target"] = kRewardsTarget;
    j["meets_target"] = perSecond >= kRewardsTarget;
    std::cout << j.dump(2) << std::endl;
    return kExitOk;
}

} // namespace

int benchCommand(const std::vector<std::string> &args)
{
    return dispatch("bench", kBenchHelp, args, {{"rewards", rewards}});
}

} // namespace rwb::cli
