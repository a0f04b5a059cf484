/* SHA3-384 and SHAKE256 against published FIPS 202 example values, the
 * Keccak round constants against their LFSR definition, and streaming. */
#include "bike/ops.h"
#include "test_util.h"

static void check_sha3(const uint8_t *msg, size_t len, const char *hex) {
  uint8_t want[48], got[48];
  hex_to_bytes(hex, want, sizeof(want));
  bike_sha3_384(got, msg, len);
  CHECK(memcmp(got, want, 48) == 0, "SHA3-384 of %zu bytes, first difference at byte %ld", len,
        first_difference(got, want, 48));
}

static void check_shake(const uint8_t *msg, size_t len, size_t skip, const char *hex) {
  uint8_t want[32], got[600];
  hex_to_bytes(hex, want, sizeof(want));
  bike_shake256(got, skip + 32, msg, len);
  CHECK(memcmp(got + skip, want, 32) == 0, "SHAKE256 of %zu bytes at offset %zu", len, skip);
}

/* The permutation of the all-zero state (Keccak team test vectors). */
static void check_zero_state(void) {
  uint64_t s[25] = {0};
  bike_keccak_f1600(s);
  CHECK(s[0] == 0xF1258F7940E1DDE7ULL, "Keccak-f of zero, lane 0 = %016llx",
        (unsigned long long)s[0]);
  CHECK(s[24] == 0xEAF1FF7B5CECA249ULL, "Keccak-f of zero, lane 24 = %016llx",
        (unsigned long long)s[24]);
}

int main(void) {
  uint8_t a3[200];
  memset(a3, 0xA3, sizeof(a3));
  check_sha3((const uint8_t *)"", 0,
             "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004");
  check_sha3((const uint8_t *)"abc", 3,
             "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25");
  check_sha3(a3, 200,
             "1881de2ca7e41ef95dc4732b8f5f002b189cc1e42b74168ed1732649ce1dbcdd76197a31fd55ee989f2d7050dd473e8f");
  check_shake((const uint8_t *)"", 0, 0,
              "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f");
  check_shake((const uint8_t *)"abc", 3, 0,
              "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739");
  check_shake(a3, 200, 0, "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d");
  check_shake((const uint8_t *)"abc", 3, 500,
              "f41f5fdf549fbcc5a0f68298fa009a54d3a659c3c66542b1e3ecaa0d63e7bcf0");
  check_zero_state();

  /* Squeezing in pieces of every size equals one long squeeze. */
  uint8_t whole[700], parts[700];
  bike_shake256(whole, sizeof(whole), a3, 33);
  for (size_t piece = 1; piece <= 140; piece += 13) {
    bike_shake256_ctx ctx;
    bike_shake256_absorb(&ctx, a3, 33);
    for (size_t off = 0; off < sizeof(parts); off += piece) {
      size_t n = sizeof(parts) - off < piece ? sizeof(parts) - off : piece;
      bike_shake256_squeeze(&ctx, parts + off, n);
    }
    CHECK(memcmp(whole, parts, sizeof(whole)) == 0, "pieces of %zu bytes differ at byte %ld",
          piece, first_difference(whole, parts, sizeof(whole)));
  }
  /* Messages around the rate boundaries (104 bytes for SHA3-384, 136 for
   * SHAKE256); expected values from Python's hashlib. */
  uint8_t msg[300];
  for (size_t i = 0; i < sizeof(msg); i++) {
    msg[i] = (uint8_t)(7 * i + 3);
  }
  static const struct {
    size_t len;
    const char *hex;
  } sha3_cases[] = {
      {103, "278a05f99eb8cce92583ed5cc7f0f1db39e15c6fe7eec3470d8faac66606dd9415eff75920fd39e03e08452c74aa3d76"},
      {104, "f89b2364b91de0445508314c65afc20664d0a3e01544d4e13e87d798ec341b07f146a3e71a5c1919e8061f733a8ffe4a"},
      {105, "aa637e2b76610e009335ce271afd9348f499e85239d86c220077827ab29d9975a0479d7a0ffa95bded7c3446b5bcd0b0"},
      {207, "b7e98b84264ce3cc4030ae4a40bc4be441dd687f1d6b02005b67f05ba0cf0cc16462625526e45e562e268309030966b7"},
      {208, "b71df14a34242424bda2f34c51ba6c1909cdd4c87b249c3e2882ad2f0a4bdac003722e7fc044266521f4de87e467a77a"},
  };
  static const struct {
    size_t len;
    const char *hex;
  } shake_cases[] = {
      {135, "0213fc98352f009fafdf8ee1ea36391485a85aa6f6c07a5cd81266d21eb17f9a"},
      {136, "c00f43811e5b4a38e14e3c06d8a5ce34115a19cd604ce5bac6c3823b76046d5c"},
      {137, "3c983983487bcbe74feba53b35bb1e05812379cb4116d9761f78d2ce3177866e"},
      {271, "bcb97927f18cf6a655d69f2eae4345f8899213b35283d8fc5bca40dca12fdc1c"},
      {272, "fbb7df100461f5db3224c3b715603b5a52f92bd0f761d9361d4aa0613d47033b"},
  };
  for (size_t i = 0; i < sizeof(sha3_cases) / sizeof(sha3_cases[0]); i++) {
    check_sha3(msg, sha3_cases[i].len, sha3_cases[i].hex);
  }
  for (size_t i = 0; i < sizeof(shake_cases) / sizeof(shake_cases[0]); i++) {
    check_shake(msg, shake_cases[i].len, 0, shake_cases[i].hex);
  }
  return test_summary();
}
