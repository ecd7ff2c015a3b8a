// The reward registry, the judge client and the OpenAI server name a few functions that
// live in the libtorch half of the engine (a local chat model, a local judge, a Hugging
// Face embedder, the CPU threads). No harness reaches them, and the fuzz build has no
// libtorch: each is defined here, by its mangled name, as a stop. A link error naming a new
// one means a harness's sources started naming another: add it below (c++filt shows what
// it is), or keep the harness away from it.
#include <cstdio>
#include <cstdlib>

namespace {

[[noreturn]] void unreachable(const char *what)
{
    std::fprintf(stderr, "fuzz: %s needs libtorch, which the fuzz build does not have\n", what);
    std::abort();
}

} // namespace

// rwb::judge::makeLocalBackend
extern "C" [[noreturn]] void rwbFuzzTorchless0() __asm__("_ZN3rwb5judge16makeLocalBackendERKNS0_12JudgeOptionsE");
extern "C" void rwbFuzzTorchless0() { unreachable("rwb::judge::makeLocalBackend"); }

// rwb::model::familyName
extern "C" [[noreturn]] void rwbFuzzTorchless1() __asm__("_ZN3rwb5model10familyNameENS0_6FamilyE");
extern "C" void rwbFuzzTorchless1() { unreachable("rwb::model::familyName"); }

// rwb::model::TextEncoder::load
extern "C" [[noreturn]] void rwbFuzzTorchless2() __asm__("_ZN3rwb5model11TextEncoder4loadERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEi");
extern "C" void rwbFuzzTorchless2() { unreachable("rwb::model::TextEncoder::load"); }

// rwb::model::TextEncoder::~TextEncoder
extern "C" [[noreturn]] void rwbFuzzTorchless3() __asm__("_ZN3rwb5model11TextEncoderD1Ev");
extern "C" void rwbFuzzTorchless3() { unreachable("rwb::model::TextEncoder::~TextEncoder"); }

// rwb::model::poolingName
extern "C" [[noreturn]] void rwbFuzzTorchless4() __asm__("_ZN3rwb5model11poolingNameENS0_7PoolingE");
extern "C" void rwbFuzzTorchless4() { unreachable("rwb::model::poolingName"); }

// rwb::model::BatchDecoder::add
extern "C" [[noreturn]] void rwbFuzzTorchless5() __asm__("_ZN3rwb5model12BatchDecoder3addERKSt6vectorIiSaIiEERKS2_INS0_11RowSamplingESaIS7_EE");
extern "C" void rwbFuzzTorchless5() { unreachable("rwb::model::BatchDecoder::add"); }

// rwb::model::BatchDecoder::step
extern "C" [[noreturn]] void rwbFuzzTorchless6() __asm__("_ZN3rwb5model12BatchDecoder4stepEv");
extern "C" void rwbFuzzTorchless6() { unreachable("rwb::model::BatchDecoder::step"); }

// rwb::model::BatchDecoder::remove
extern "C" [[noreturn]] void rwbFuzzTorchless7() __asm__("_ZN3rwb5model12BatchDecoder6removeERKSt6vectorIiSaIiEE");
extern "C" void rwbFuzzTorchless7() { unreachable("rwb::model::BatchDecoder::remove"); }

// rwb::model::BatchDecoder::BatchDecoder
extern "C" [[noreturn]] void rwbFuzzTorchless8() __asm__("_ZN3rwb5model12BatchDecoderC1ERNS0_8CausalLMEl");
extern "C" void rwbFuzzTorchless8() { unreachable("rwb::model::BatchDecoder::BatchDecoder"); }

// rwb::model::BatchDecoder::~BatchDecoder
extern "C" [[noreturn]] void rwbFuzzTorchless9() __asm__("_ZN3rwb5model12BatchDecoderD1Ev");
extern "C" void rwbFuzzTorchless9() { unreachable("rwb::model::BatchDecoder::~BatchDecoder"); }

// rwb::model::parsePooling
extern "C" [[noreturn]] void rwbFuzzTorchless10() __asm__("_ZN3rwb5model12parsePoolingESt17basic_string_viewIcSt11char_traitsIcEE");
extern "C" void rwbFuzzTorchless10() { unreachable("rwb::model::parsePooling"); }

// rwb::model::useCpuThreads
extern "C" [[noreturn]] void rwbFuzzTorchless11() __asm__("_ZN3rwb5model13useCpuThreadsEi");
extern "C" void rwbFuzzTorchless11() { unreachable("rwb::model::useCpuThreads"); }

// rwb::model::CausalLM::load
extern "C" [[noreturn]] void rwbFuzzTorchless12() __asm__("_ZN3rwb5model8CausalLM4loadERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERKNS0_12ModelOptionsE");
extern "C" void rwbFuzzTorchless12() { unreachable("rwb::model::CausalLM::load"); }

// rwb::model::CausalLM::~CausalLM
extern "C" [[noreturn]] void rwbFuzzTorchless13() __asm__("_ZN3rwb5model8CausalLMD1Ev");
extern "C" void rwbFuzzTorchless13() { unreachable("rwb::model::CausalLM::~CausalLM"); }

// rwb::model::TextEncoder::encode
extern "C" [[noreturn]] void rwbFuzzTorchless14() __asm__("_ZNK3rwb5model11TextEncoder6encodeERKSt6vectorIS2_IiSaIiEESaIS4_EENS0_7PoolingE");
extern "C" void rwbFuzzTorchless14() { unreachable("rwb::model::TextEncoder::encode"); }

// rwb::model::BatchDecoder::decodedTokens
extern "C" [[noreturn]] void rwbFuzzTorchless15() __asm__("_ZNK3rwb5model12BatchDecoder13decodedTokensEv");
extern "C" void rwbFuzzTorchless15() { unreachable("rwb::model::BatchDecoder::decodedTokens"); }

// rwb::model::BatchDecoder::prefilledTokens
extern "C" [[noreturn]] void rwbFuzzTorchless16() __asm__("_ZNK3rwb5model12BatchDecoder15prefilledTokensEv");
extern "C" void rwbFuzzTorchless16() { unreachable("rwb::model::BatchDecoder::prefilledTokens"); }

// rwb::model::BatchDecoder::rows
extern "C" [[noreturn]] void rwbFuzzTorchless17() __asm__("_ZNK3rwb5model12BatchDecoder4rowsEv");
extern "C" void rwbFuzzTorchless17() { unreachable("rwb::model::BatchDecoder::rows"); }

// rwb::model::BatchDecoder::steps
extern "C" [[noreturn]] void rwbFuzzTorchless18() __asm__("_ZNK3rwb5model12BatchDecoder5stepsEv");
extern "C" void rwbFuzzTorchless18() { unreachable("rwb::model::BatchDecoder::steps"); }

// rwb::model::BatchDecoder::length
extern "C" [[noreturn]] void rwbFuzzTorchless19() __asm__("_ZNK3rwb5model12BatchDecoder6lengthEi");
extern "C" void rwbFuzzTorchless19() { unreachable("rwb::model::BatchDecoder::length"); }

// rwb::model::CausalLM::deviceName[abi:cxx11]
extern "C" [[noreturn]] void rwbFuzzTorchless20() __asm__("_ZNK3rwb5model8CausalLM10deviceNameB5cxx11Ev");
extern "C" void rwbFuzzTorchless20() { unreachable("rwb::model::CausalLM::deviceName[abi:cxx11]"); }

// rwb::model::CausalLM::parameterCount
extern "C" [[noreturn]] void rwbFuzzTorchless21() __asm__("_ZNK3rwb5model8CausalLM14parameterCountEv");
extern "C" void rwbFuzzTorchless21() { unreachable("rwb::model::CausalLM::parameterCount"); }

// rwb::model::CausalLM::config
extern "C" [[noreturn]] void rwbFuzzTorchless22() __asm__("_ZNK3rwb5model8CausalLM6configEv");
extern "C" void rwbFuzzTorchless22() { unreachable("rwb::model::CausalLM::config"); }

// rwb::model::CausalLM::dtypeName[abi:cxx11]
extern "C" [[noreturn]] void rwbFuzzTorchless23() __asm__("_ZNK3rwb5model8CausalLM9dtypeNameB5cxx11Ev");
extern "C" void rwbFuzzTorchless23() { unreachable("rwb::model::CausalLM::dtypeName[abi:cxx11]"); }
