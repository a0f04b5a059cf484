// bike_kem's shared codes and types (doc/bike_kem.md): the host-visible
// operations, objects and error codes; the memory map of the message memory;
// the step descriptor through which bike_kem_ctrl tells the data path
// (bike_kem_banks and the units) what the current step does.
package bike_kem_pkg;

  typedef enum logic [3:0] {
    OpKeygen = 4'd1,
    OpEncaps = 4'd2,
    OpDecaps = 4'd3,
    OpLoad   = 4'd4,
    OpStore  = 4'd5
  } op_e;

  typedef enum logic [3:0] {
    ObjRand  = 4'd0,
    ObjPk    = 4'd1,
    ObjSkPos = 4'd2,
    ObjSkH0  = 4'd3,
    ObjSkH1  = 4'd4,
    ObjSigma = 4'd5,
    ObjC0    = 4'd6,
    ObjC1    = 4'd7,
    ObjSs    = 4'd8
  } obj_e;

  typedef enum logic [3:0] {
    ErrNone   = 4'd0,
    ErrOp     = 4'd1,  // unknown op, or not in this build
    ErrObject = 4'd2,  // unknown object, not in this build, wrong direction
    ErrLength = 4'd3,  // LOAD packet of the wrong length
    ErrKey    = 4'd4,  // ENCAPS without a valid public key, DECAPS without a secret key
    ErrRand   = 4'd5   // KEYGEN or ENCAPS without RAND loaded since the last primitive
  } err_e;

  // ---------------------------------------------------------------------------
  // Memories
  // ---------------------------------------------------------------------------
  // The polynomial memories (N words of 64 bits each)
  typedef enum logic [2:0] {
    BankH0 = 3'd0,  // B0: h0 (dense)
    BankH1 = 3'd1,  // B1: h1 (dense)
    BankPk = 3'd2,  // B2: h, the public key
    BankC0 = 3'd3,  // B3: c0
    BankE0 = 3'd4,  // B4: h0^-1, e0, the syndrome, e0'
    BankE1 = 3'd5   // B5: e1, e1'
  } bank_e;
  localparam int unsigned NumBanks = 6;

  // The message memory: 24 words of 64 bits, the 32-byte objects
  localparam logic [4:0] MsgM     = 5'd0;   // m' (Decaps)
  localparam logic [4:0] MsgSigma = 5'd4;
  localparam logic [4:0] MsgC1    = 5'd8;
  localparam logic [4:0] MsgSs    = 5'd12;
  localparam logic [4:0] MsgRand  = 5'd16;  // 8 words; words 0..3 are m in Encaps
  localparam int unsigned MsgWords = 24;

  // Where an object lives
  typedef enum logic [1:0] {
    MemNone,  // not a LOAD or STORE step
    MemBank,  // a polynomial memory (PK, SK_H0, SK_H1, C0)
    MemPos,   // the key's positions (SK_POS)
    MemMsg    // the message memory (RAND, SIGMA, C1, SS)
  } obj_mem_e;

  function automatic logic obj_in_bank(logic [3:0] o);
    return o == ObjPk || o == ObjSkH0 || o == ObjSkH1 || o == ObjC0;
  endfunction

  function automatic bank_e obj_bank(logic [3:0] o);
    unique case (o)
      ObjSkH0: return BankH0;
      ObjSkH1: return BankH1;
      ObjPk:   return BankPk;
      default: return BankC0;  // ObjC0
    endcase
  endfunction

  function automatic obj_mem_e obj_mem(logic [3:0] o);
    if (obj_in_bank(o)) return MemBank;
    if (o == ObjSkPos)  return MemPos;
    return MemMsg;
  endfunction

  function automatic logic [4:0] obj_msg_base(logic [3:0] o);
    unique case (o)
      ObjRand:  return MsgRand;
      ObjSigma: return MsgSigma;
      ObjC1:    return MsgC1;
      default:  return MsgSs;
    endcase
  endfunction

  // ---------------------------------------------------------------------------
  // Step descriptor
  // ---------------------------------------------------------------------------
  // The unit a step runs (its start, its handshakes, its result words)
  typedef enum logic [2:0] {
    UnitNone,     // the control counts words: LOAD, STORE, clear, zero test, wipe
    UnitSampler,  // sampler_ctrl on the Keccak; positions toggled into banks
    UnitInv,      // gf2x_inv
    UnitMul,      // the sparse-dense product (a sparse_mul, or the decoder's units)
    UnitDecoder,  // bike_decoder
    UnitHash      // bike_kem_hash on the Keccak
  } unit_e;

  // The positions a product reads
  typedef enum logic [2:0] {
    PosNone,
    PosH0,   // KPOS[0 .. D-1] (h0)
    PosH1,   // KPOS[D .. 2D-1] (h1)
    PosKey,  // KPOS[0 .. 2D-1] (the decoder: h0 then h1)
    PosE1    // EPOS, the positions at or above R (e1); the others masked
  } pos_e;

  typedef struct packed {
    unit_e      unit;
    logic       load;        // host words into the object (obj_mem, dst or msg_base)
    logic       store;       // the object out to the host (obj_mem, src or msg_base)
    obj_mem_e   obj_mem;
    logic [4:0] msg_base;    // the object's first word in the message memory
    logic [5:0] zero_banks;  // banks written with zero words, word cnt
    logic       sigma_copy;  // sigma = rand[4..7] (words cnt < 4)
    logic       wipe_msg;    // m' and rand zeroed (word cnt)
    logic       zero_test;   // B4, B5 word cnt read for the zero test
    logic       smp_key;     // the sampler makes h0, h1 (KPOS, B0, B1); else H(m) (B4, B5)
    logic       smp_epos;    // H(m)'s positions are kept in EPOS
    bank_e      src;         // the bank the unit's dense operand is read from
    bank_e      dst;         // result words 0 .. N-1 go to this bank ...
    bank_e      dst_hi;      // ... words N .. 2N-1 (the decoder's e1) to this one
    pos_e       pos;         // the product's positions
    logic       add_e0;      // the product's words XORed with B4's (c0 = e1 h + e0)
    logic       hash_k;      // the hash is K (else L)
    logic       m_prime;     // m is m' (Decaps' steps); else rand[0..3]
    logic       ok_mask;     // K's m word is m' & ok | sigma & ~ok
  } step_t;

endpackage
