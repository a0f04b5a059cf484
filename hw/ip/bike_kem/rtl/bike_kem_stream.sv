// bike_kem on the accelerator shell's operation-core interface
// (../../acc_shell/doc/acc_shell.md; the device: doc/bike_kem.md, "The bus
// device").
//
// One shell operation is one whole primitive with its objects: the adapter
// runs a fixed program of bike_kem commands, LOADs fed from the input words,
// the primitive, STOREs into the output words (objects as bike_kem lays them
// out: word-aligned, zero-padded, libbike's byte order):
//
//   1 KEYGEN  LOAD RAND; KEYGEN; STORE SK_POS, SK_H0, SK_H1, PK, SIGMA
//   2 ENCAPS  LOAD PK, RAND; ENCAPS; STORE C0, C1, SS
//   3 DECAPS  LOAD C0, C1, SK_POS, SIGMA; DECAPS; STORE SS
//
// The operation codes are bike_kem's; a shape offers only its primitives.
// The adapter makes each LOAD's TLAST from its word count. Once a command
// fails (ENCAPS without a valid public key, DECAPS without a valid secret
// key: bits or positions at or above R), the rest of the program runs no
// primitive, its STOREs give zero words, and done carries the error, so a
// failed operation never shows an older object.
//
//   StIdle   wait for a start
//   StIssue  the next command to bike_kem (idle here: its last command ended)
//   StRun    the command runs; its words pass; its done ends the step
//   StFill   zero words in place of a STORE after an error
module bike_kem_stream
  import bike_kem_pkg::*;
#(
  parameter int unsigned R                  = 12323,
  parameter int unsigned D                  = 71,
  parameter int unsigned T                  = 134,
  parameter bit          Keygen             = 1'b1,
  parameter bit          Encaps             = 1'b1,
  parameter bit          Decaps             = 1'b1,
  parameter int unsigned RoundsPerCycle     = 1,
  parameter bit          KeccakSerial       = 1'b0,
  parameter int unsigned InvE               = 16,
  parameter int unsigned InvKaratsubaLevels = 2,
  parameter int unsigned InvParallelLevels  = 1,
  parameter int unsigned SparseP            = 8,
  parameter int unsigned DecoderP           = 8,
  parameter bit          DecoderPrefetch    = 1'b1,
  parameter int unsigned DecoderTile        = 0,
  localparam int unsigned W    = 64,
  localparam int unsigned N    = (R + W - 1) / W,
  localparam int unsigned OpW  = 8,
  localparam int unsigned CntW = 16
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic [OpW-1:0]  op_i,
  output logic            op_ok_o,
  output logic [CntW-1:0] in_words_o,
  output logic [CntW-1:0] out_words_o,
  output logic            done_o,
  output logic            err_o,
  input  logic            in_valid_i,
  output logic            in_ready_o,
  input  logic [W-1:0]    in_data_i,
  output logic            out_valid_o,
  input  logic            out_ready_i,
  output logic [W-1:0]    out_data_o
);

  // ---------------------------------------------------------------------------
  // The programs
  // ---------------------------------------------------------------------------
  typedef enum logic [1:0] {
    KindLoad,
    KindPrim,
    KindStore
  } kind_e;

  typedef struct packed {
    kind_e      kind;
    logic [3:0] code;  // the object (LOAD, STORE) or the primitive's op
    logic       last;  // the program's last command
  } cmd_t;

  function automatic cmd_t cmd(kind_e k, logic [3:0] c, logic l);
    cmd_t x;
    x.kind = k;
    x.code = c;
    x.last = l;
    return x;
  endfunction

  // command i of operation op (op is a known one: checked at the start)
  function automatic cmd_t prog(logic [3:0] op, logic [2:0] i);
    unique case (op)
      OpKeygen: begin
        unique case (i)
          3'd0:    return cmd(KindLoad, ObjRand, 1'b0);
          3'd1:    return cmd(KindPrim, OpKeygen, 1'b0);
          3'd2:    return cmd(KindStore, ObjSkPos, 1'b0);
          3'd3:    return cmd(KindStore, ObjSkH0, 1'b0);
          3'd4:    return cmd(KindStore, ObjSkH1, 1'b0);
          3'd5:    return cmd(KindStore, ObjPk, 1'b0);
          default: return cmd(KindStore, ObjSigma, 1'b1);
        endcase
      end
      OpEncaps: begin
        unique case (i)
          3'd0:    return cmd(KindLoad, ObjPk, 1'b0);
          3'd1:    return cmd(KindLoad, ObjRand, 1'b0);
          3'd2:    return cmd(KindPrim, OpEncaps, 1'b0);
          3'd3:    return cmd(KindStore, ObjC0, 1'b0);
          3'd4:    return cmd(KindStore, ObjC1, 1'b0);
          default: return cmd(KindStore, ObjSs, 1'b1);
        endcase
      end
      default: begin  // OpDecaps
        unique case (i)
          3'd0:    return cmd(KindLoad, ObjC0, 1'b0);
          3'd1:    return cmd(KindLoad, ObjC1, 1'b0);
          3'd2:    return cmd(KindLoad, ObjSkPos, 1'b0);
          3'd3:    return cmd(KindLoad, ObjSigma, 1'b0);
          3'd4:    return cmd(KindPrim, OpDecaps, 1'b0);
          default: return cmd(KindStore, ObjSs, 1'b1);
        endcase
      end
    endcase
  endfunction

  // an object's words, as bike_kem's LOAD and STORE count them
  function automatic logic [CntW-1:0] obj_words(logic [3:0] o);
    unique case (o)
      ObjRand:                        return CntW'(8);
      ObjPk, ObjSkH0, ObjSkH1, ObjC0: return CntW'(N);
      ObjSkPos:                       return CntW'(D);
      default:                        return CntW'(4);  // SIGMA, C1, SS
    endcase
  endfunction

  // the operation's stream lengths: the sums of its LOADs' and STOREs' words
  always_comb begin
    op_ok_o     = 1'b0;
    in_words_o  = '0;
    out_words_o = '0;
    unique case (op_i)
      OpW'(OpKeygen): begin
        op_ok_o     = Keygen;
        in_words_o  = CntW'(8);
        out_words_o = CntW'(D + 3 * N + 4);
      end
      OpW'(OpEncaps): begin
        op_ok_o     = Encaps;
        in_words_o  = CntW'(N + 8);
        out_words_o = CntW'(N + 8);
      end
      OpW'(OpDecaps): begin
        op_ok_o     = Decaps;
        in_words_o  = CntW'(N + D + 8);
        out_words_o = CntW'(4);
      end
      default: ;
    endcase
    if (!op_ok_o) begin
      in_words_o  = '0;
      out_words_o = '0;
    end
  end

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  typedef enum logic [1:0] {
    StIdle,
    StIssue,
    StRun,
    StFill
  } state_e;

  state_e          state_q, state_d;
  logic [3:0]      op_q, op_d;
  logic [2:0]      idx_q, idx_d;   // the program's command
  logic [CntW-1:0] cnt_q, cnt_d;   // words of the command's object moved
  logic            err_q, err_d;   // a command of this operation failed

  cmd_t            cur;
  logic            cur_lastw;      // word cnt is the object's last

  logic            kem_cmd_valid, kem_busy, kem_done;
  logic [3:0]      kem_cmd_op, kem_cmd_obj, kem_err;
  logic            kem_in_valid, kem_in_ready, kem_in_last;
  logic            kem_out_valid, kem_out_ready, kem_out_last;
  logic [W-1:0]    kem_out_data;
  logic            kem_pk_valid, kem_sk_valid;

  assign cur       = prog(op_q, idx_q);
  assign cur_lastw = (cnt_q == obj_words(cur.code) - 1'b1);

  // The testbench's view of the core alone: high from the cycle a primitive's
  // command is given to the cycle before its done (bike_kem's own latency).
  logic prim_cycle /* verilator public_flat_rd */;
  assign prim_cycle = (cur.kind == KindPrim) &&
                      ((state_q == StIssue && kem_cmd_valid) || (state_q == StRun && !kem_done));

  always_comb begin
    state_d       = state_q;
    op_d          = op_q;
    idx_d         = idx_q;
    cnt_d         = cnt_q;
    err_d         = err_q;
    kem_cmd_valid = 1'b0;
    kem_cmd_op    = (cur.kind == KindLoad) ? OpLoad : (cur.kind == KindStore) ? OpStore : cur.code;
    kem_cmd_obj   = cur.code;
    kem_in_valid  = 1'b0;
    kem_in_last   = 1'b0;
    kem_out_ready = 1'b0;
    in_ready_o    = 1'b0;
    out_valid_o   = 1'b0;
    out_data_o    = kem_out_data;
    done_o        = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i && op_ok_o) begin
          state_d = StIssue;
          op_d    = op_i[3:0];
          idx_d   = '0;
          err_d   = 1'b0;
        end
      end

      StIssue: begin
        cnt_d = '0;
        if (err_q && cur.kind == KindStore) begin
          state_d = StFill;
        end else if (err_q && cur.kind == KindPrim) begin
          idx_d = idx_q + 1'b1;  // never the last command
        end else if (!kem_busy) begin
          kem_cmd_valid = 1'b1;
          state_d       = StRun;
        end
      end

      StRun: begin
        if (cur.kind == KindLoad) begin
          kem_in_valid = in_valid_i;
          kem_in_last  = cur_lastw;
          in_ready_o   = kem_in_ready;
          if (in_valid_i && kem_in_ready) cnt_d = cnt_q + 1'b1;
        end
        if (cur.kind == KindStore) begin
          out_valid_o   = kem_out_valid;
          kem_out_ready = out_ready_i;
        end
        if (kem_done) begin
          if (kem_err != ErrNone) err_d = 1'b1;
          if (cur.last) begin
            state_d = StIdle;
            done_o  = 1'b1;
          end else begin
            state_d = StIssue;
            idx_d   = idx_q + 1'b1;
          end
        end
      end

      StFill: begin
        out_valid_o = 1'b1;
        out_data_o  = '0;
        if (out_ready_i) begin
          cnt_d = cnt_q + 1'b1;
          if (cur_lastw) begin
            if (cur.last) begin
              state_d = StIdle;
              done_o  = 1'b1;
            end else begin
              state_d = StIssue;
              idx_d   = idx_q + 1'b1;
            end
          end
        end
      end

      default: state_d = StIdle;
    endcase
  end

  assign err_o = err_d;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      op_q    <= '0;
      idx_q   <= '0;
      cnt_q   <= '0;
      err_q   <= 1'b0;
    end else begin
      state_q <= state_d;
      op_q    <= op_d;
      idx_q   <= idx_d;
      cnt_q   <= cnt_d;
      err_q   <= err_d;
    end
  end

  // ---------------------------------------------------------------------------
  // The core
  // ---------------------------------------------------------------------------
  bike_kem #(
    .R                  (R),
    .D                  (D),
    .T                  (T),
    .Keygen             (Keygen),
    .Encaps             (Encaps),
    .Decaps             (Decaps),
    .RoundsPerCycle     (RoundsPerCycle),
    .KeccakSerial       (KeccakSerial),
    .InvE               (InvE),
    .InvKaratsubaLevels (InvKaratsubaLevels),
    .InvParallelLevels  (InvParallelLevels),
    .SparseP            (SparseP),
    .DecoderP           (DecoderP),
    .DecoderPrefetch    (DecoderPrefetch),
    .DecoderTile        (DecoderTile)
  ) u_kem (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .cmd_valid_i (kem_cmd_valid),
    .cmd_op_i    (kem_cmd_op),
    .cmd_obj_i   (kem_cmd_obj),
    .busy_o      (kem_busy),
    .done_o      (kem_done),
    .err_o       (kem_err),
    .pk_valid_o  (kem_pk_valid),
    .sk_valid_o  (kem_sk_valid),
    .in_valid_i  (kem_in_valid),
    .in_ready_o  (kem_in_ready),
    .in_data_i   (in_data_i),
    .in_last_i   (kem_in_last),
    .out_valid_o (kem_out_valid),
    .out_ready_i (kem_out_ready),
    .out_data_o  (kem_out_data),
    .out_last_o  (kem_out_last)
  );

  logic unused;
  assign unused = ^{kem_out_last, kem_pk_valid, kem_sk_valid};

endmodule
