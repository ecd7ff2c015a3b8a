// The synthetic data generators of the built-in tasks behind `rwb data synth`, by the
// task's name: the one place in the CLI that lists them.
#include "tasks/synthesizers.h"

#include "tasks/extraction/extractiontask.h"
#include "tasks/extraction/syntheticemails.h"
#include "tasks/legalqa/legalcorpus.h"
#include "tasks/legalqa/legalqatask.h"
#include "tasks/legalqa/legalquestion.h"
#include "tasks/legalqa/syntheticlaw.h"
#include "tasks/multihop/multihop.h"
#include "tasks/multihop/multihoptask.h"

#include <cerrno>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <stdexcept>

namespace rwb::cli {

uint64_t parseCount(const std::string &option, const std::string &value, uint64_t max)
{
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
        throw UsageError{"--" + option + " must be a whole number, not \"" + value + "\""};
    errno = 0;
    char *end = nullptr;
    const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
    if (errno == ERANGE || v > max)
        throw UsageError{"--" + option + " is too large (at most " + std::to_string(max) + ")"};
    return v;
}

namespace {

// "generated N/M" on a terminal for long runs (n ≥ 10,000), ended with a newline.
class SynthProgress {
public:
    explicit SynthProgress(uint64_t n) : m_on(stderrIsTerminal() && n >= 10000) {}
    ~SynthProgress()
    {
        if (m_on)
            std::cerr << "\n";
    }
    std::function<bool(size_t, size_t)> report() const
    {
        if (!m_on)
            return {};
        return [](size_t done, size_t total) {
            std::cerr << "\rgenerated " << done << "/" << total << std::flush;
            return true;
        };
    }

private:
    bool m_on;
};

// A synthetic data generator from its options; options out of range are usage errors.
template <class Generator, class Options>
std::unique_ptr<Generator> makeGenerator(const Options &options)
{
    try {
        return std::make_unique<Generator>(options);
    } catch (const std::invalid_argument &e) {
        throw UsageError{e.what()};
    }
}

// --corpus-out (when given) and the questions (--out, or standard output; nothing when
// only the corpus was asked for, with --n 0).
int writeCorpusAndQuestions(const Args &args, uint64_t n, const std::function<void(std::ostream &)> &corpus,
                            const std::function<void(std::ostream &)> &questions)
{
    const std::string corpusPath = args.value("corpus-out");
    if (!corpusPath.empty())
        writeOutput(corpusPath, corpus);
    const std::string outPath = args.value("out");
    if (outPath.empty() && !corpusPath.empty() && n == 0)
        return kExitOk;
    writeOutput(outPath, questions);
    return kExitOk;
}

int synthLegal(const Args &args, uint64_t n, uint64_t seed, data::DataSplit split)
{
    data::LegalSynthOptions options;
    options.seed = seed;
    options.statutes = parseCount("statutes", args.value("statutes", "16"), 1000);
    options.minSections = parseCount("min-sections", args.value("min-sections", "15"), 1000);
    options.maxSections = parseCount("max-sections", args.value("max-sections", "24"), 1000);
    const auto generator = makeGenerator<data::SyntheticLawGenerator>(options);
    const SynthProgress progress(n);
    return writeCorpusAndQuestions(
        args, n, [&](std::ostream &out) { data::writeLegalCorpusJsonl(generator->corpus(), out); },
        [&](std::ostream &out) {
            data::writeLegalQuestionsJsonl(*generator, split, n, out, progress.report(), /*every=*/10000);
        });
}

int synthMultihop(const Args &args, uint64_t n, uint64_t seed, data::DataSplit split)
{
    data::MultihopOptions options;
    options.seed = seed;
    options.people = parseCount("people", args.value("people", "160"), 100000);
    options.organizations = parseCount("organizations", args.value("organizations", "48"), 100000);
    options.cities = parseCount("cities", args.value("cities", "36"), 100000);
    options.countries = parseCount("countries", args.value("countries", "8"), 100000);
    const auto generator = makeGenerator<data::MultihopGenerator>(options);
    return writeCorpusAndQuestions(
        args, n, [&](std::ostream &out) { data::writeMultihopCorpusJsonl(*generator, out); },
        [&](std::ostream &out) { data::writeMultihopQuestionsJsonl(*generator, split, n, out); });
}

int synthExtraction(const Args &args, uint64_t n, uint64_t seed, data::DataSplit split)
{
    const uint64_t maxChars = parseCount("max-chars", args.value("max-chars", "600"), 1'000'000);
    if (maxChars < 300)
        throw UsageError{"--max-chars must be at least 300"};
    const std::string reasoning = args.value("reasoning", "none");
    if (reasoning != "none" && reasoning != "templated")
        throw UsageError{"--reasoning: templated or none, not \"" + reasoning + "\""};
    const data::SyntheticEmailGenerator generator(seed, split, maxChars);
    const SynthProgress progress(n);
    writeOutput(args.value("out"), [&](std::ostream &out) {
        data::writeSyntheticJsonl(generator, n, out, progress.report(), /*every=*/10000, reasoning == "templated");
    });
    return kExitOk;
}

} // namespace

const std::vector<Synthesizer> &synthesizers()
{
    static const std::vector<Synthesizer> all = {
        {std::string(task::ExtractionTask().name()), {"max-chars", "reasoning"}, synthExtraction},
        {std::string(task::LegalQaTask().name()), {"corpus-out", "statutes", "min-sections", "max-sections"}, synthLegal},
        {std::string(task::MultihopTask().name()), {"corpus-out", "people", "organizations", "cities", "countries"},
         synthMultihop},
    };
    return all;
}

} // namespace rwb::cli
