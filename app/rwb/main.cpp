// rwb: the Reward Workbench engine on the command line. JSON / JSONL in and out;
// errors on stderr as "file:line: reason"; exit 0 on success, 2 on bad input.
#include "cli.h"
#include "commands.h"
#include "engine/localchatbackend.h"

#include <iostream>

namespace {

const char *const kHelp = R"(rwb — Reward Workbench on the command line

Usage: rwb <command> [<subcommand>] [options]

Commands:
  reward score    score completions with a reward config (JSONL in, JSONL out)
  reward compare  mean total per completion kind for several reward configs
  reward list     the registered reward components
  task init       a first description of your own task, guessed from your records (JSONL)
  task check      your records read with a task description; the first prompts as the model sees them
  eval score      precision / recall / F1 of extracted answers (the first paper's §2.4)
  bench rewards   component evaluations per second on one thread
  bench generate  prefill / decode tokens/s of the decoder against the bandwidth bound
  bench membw     the machine's memory bandwidth
  bench few-rows  decoding's few-rows products: GB/s of W, our kernels and ATen
  bench store     rollouts inserted per second into the SQLite run store
  data synth      synthetic Japanese business e-mails for company extraction (JSONL)
  data stats      length distribution and variety of an extraction dataset
  tokenizer train   train a byte-level BPE tokenizer (tokenizer.json) on a text corpus
  tokenizer encode  token ids of a text with a model folder's tokenizer
  tokenizer decode  the text of token ids
  tokenizer info    what a model folder's tokenizer and prompt format are
  model init      a new model folder with random weights (the tiny default, Qwen3-0.6B's shape)
  model info      what a model folder holds
  model check     whether this build computes the decoder and its gradients right on a device
  generate        sample completions from a model (and a LoRA adapter) by hand
  sft             supervised fine-tuning (full or LoRA) on a task's dataset
  grpo            GRPO with a reward config; every rollout goes to the run store
  eval run        generate with a model on a task's dataset: its metrics (precision / recall / F1)
  eval failures   predictions grouped by what went wrong; fixed / broke against another
  eval compare    two models' predictions: paired differences, intervals, power
  store info      the runs in a run store with their step counts
  store sql       a read-only SQL query on a run store (JSON lines out)
  retrieve index  a BM25 index (and dense vectors) of a passage corpus (SQLite FTS5)
  retrieve query  the top passages for a question: bm25, dense or hybrid
  retrieve annotate  add the retrieved passages to every line of a JSONL file
  retrieve eval   recall@k, hit@k and MRR of each retriever on questions with gold ids
  embed           unit vectors of texts from an embedding backend (lexical, http:, hf:)
  bench embed     texts/s of an embedding backend and the semantic reward's cost per pair
  judge check     a test call to the LLM judge a reward config names
  judge data      labelled requests to train a small legal-QA judge on (rwb sft, task chat)
  judge eval      a judge's precision / recall / F1 against the reference grader's labels
  rubric generate rubrics for questions: from their reference facts, or written by a judge
  serve           an OpenAI-compatible HTTP server (chat completions, embeddings) over the engine
  bench serve     requests/s and tokens/s of rwb serve with 1, 8, 32 concurrent clients
  mcts run        Monte-Carlo tree search over reasoning steps (ProRAG) on a multi-hop question set
  mcts export     stored search trees as JSON (ours, or ProRAG's shape)
  mcts import     search-tree JSON files into a run store
  bench mcts      simulations/s of the tree search and where the time goes
  prm pairs       sibling steps of an MCTS run's trees as preference pairs (with the tree's labels)
  prm judge       an LLM judge's labels (A / B / tie with a reason) for a pair set
  prm export      labelled pairs as DPO or TRL stepwise JSONL
  prm import      DPO or stepwise JSONL into a pair set
  prm label       a person's label of one pair, from a script
  prm agreement   Cohen's kappa and Krippendorff's alpha between the tree, judges and people
  prm train       the process reward model on a pair set's labels (eq. 4)
  prm score       the PRM's score of every step of trajectories
  prm table       EM / F1 with bootstrap intervals of several models' predictions (ProRAG's ablation)
  prm rft         PRM-filtered rejection-sampling fine-tuning (sample, keep the right and PRM-approved, SFT)
  import          rollouts another trainer dumped (verl, TRL, OpenRLHF, prime-rl, NeMo-RL) into a run of the store
  dist check      whether N processes (this machine's, or torchrun's) can train together, and all-reduce speed

Run "rwb <command> --help" for a command's options.
Exit codes: 0 success, 1 failure, 2 bad input or usage.
Documentation: docs/cli.md
)";

} // namespace

int main(int argc, char **argv)
{
    rwb::engine::installLocalChatBackend(); // judges may run a model folder in-process
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << kHelp;
        return args.empty() ? rwb::cli::kExitBadInput : rwb::cli::kExitOk;
    }
    if (args[0] == "--version") {
        std::cout << "rwb " << RWB_VERSION << "\n";
        return rwb::cli::kExitOk;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    if (command == "reward")
        return rwb::cli::rewardCommand(args);
    if (command == "task")
        return rwb::cli::taskCommand(args);
    if (command == "eval")
        return rwb::cli::evalCommand(args);
    if (command == "bench")
        return rwb::cli::benchCommand(args);
    if (command == "data")
        return rwb::cli::dataCommand(args);
    if (command == "tokenizer")
        return rwb::cli::tokenizerCommand(args);
    if (command == "model")
        return rwb::cli::modelCommand(args);
    if (command == "generate")
        return rwb::cli::generateCommand(args);
    if (command == "sft")
        return rwb::cli::sftCommand(args);
    if (command == "grpo")
        return rwb::cli::grpoCommand(args);
    if (command == "store")
        return rwb::cli::storeCommand(args);
    if (command == "retrieve")
        return rwb::cli::retrieveCommand(args);
    if (command == "embed")
        return rwb::cli::embedCommand(args);
    if (command == "judge")
        return rwb::cli::judgeCommand(args);
    if (command == "rubric")
        return rwb::cli::rubricCommand(args);
    if (command == "serve")
        return rwb::cli::serveCommand(args);
    if (command == "mcts")
        return rwb::cli::mctsCommand(args);
    if (command == "prm")
        return rwb::cli::prmCommand(args);
    if (command == "import")
        return rwb::cli::importCommand(args);
    if (command == "dist")
        return rwb::cli::distCommand(args);
    rwb::cli::printError("unknown command \"" + command +
                         "\" (commands: reward, task, eval, bench, data, tokenizer, model, generate, sft, grpo, store, retrieve, embed, judge, "
                         "rubric, serve, mcts, prm, import, dist; see rwb --help)");
    return rwb::cli::kExitBadInput;
}
