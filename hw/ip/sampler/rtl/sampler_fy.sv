// Constant-time Fisher-Yates draw of `count` distinct positions in
// [0, bound) from a stream of 32-bit words (bike-spec.md, function H):
//   for i = count-1 down to 0:
//     l = i + ((word * (bound - i)) >> 32)
//     pos[i] = (l equals one of pos[i+1 .. count-1]) ? i : l
// The chosen positions are kept in a memory (address i) and compared one per
// cycle, all of them every time: the schedule depends on count only.
// Each position leaves on pos_valid_o with its index i.
module sampler_fy #(
  parameter int unsigned PosW     = 17,   // positions < 2^PosW
  parameter int unsigned MaxCount = 512,  // memory depth, >= count
  localparam int unsigned IdxW    = $clog2(MaxCount)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic [IdxW:0]   count_i,
  input  logic [PosW-1:0] bound_i,
  output logic            busy_o,
  // random words
  input  logic            word_valid_i,
  output logic            word_ready_o,
  input  logic [31:0]     word_i,
  // positions
  output logic            pos_valid_o,
  output logic [IdxW-1:0] pos_idx_o,
  output logic [PosW-1:0] pos_o,
  output logic            done_o
);

  typedef enum logic [2:0] {
    StIdle,
    StWord,
    StScale,
    StCmp,
    StWrite
  } state_e;

  state_e state_q, state_d;
  logic [IdxW:0]      count_q, count_d;
  logic [PosW-1:0]    bound_q, bound_d;
  logic [IdxW:0]      i_q, i_d;        // current draw
  logic [IdxW:0]      j_q, j_d;        // next address to read
  logic [PosW+31:0]   prod_q, prod_d;  // word * (bound - i)
  logic [PosW-1:0]    cand_q, cand_d;
  logic               dup_q, dup_d;

  logic               re, we;
  logic [IdxW-1:0]    raddr;
  logic [PosW-1:0]    rdata, wdata;

  always_comb begin
    state_d      = state_q;
    count_d      = count_q;
    bound_d      = bound_q;
    i_d          = i_q;
    j_d          = j_q;
    prod_d       = prod_q;
    cand_d       = cand_q;
    dup_d        = dup_q;
    re           = 1'b0;
    raddr        = j_q[IdxW-1:0];
    we           = 1'b0;
    wdata        = dup_q ? PosW'(i_q) : cand_q;
    word_ready_o = 1'b0;
    pos_valid_o  = 1'b0;
    done_o       = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          count_d = count_i;
          bound_d = bound_i;
          i_d     = count_i - 1'b1;
          state_d = StWord;
        end
      end

      StWord: begin
        word_ready_o = 1'b1;
        if (word_valid_i) begin
          // maps to a DSP multiplier
          prod_d  = (PosW + 32)'(word_i) * (PosW + 32)'(bound_q - PosW'(i_q));
          state_d = StScale;
        end
      end

      StScale: begin
        cand_d  = PosW'(i_q) + prod_q[PosW+31:32];
        dup_d   = 1'b0;
        j_d     = i_q + 1'b1;
        if (i_q + 1'b1 == count_q) begin
          state_d = StWrite;
        end else begin
          re      = 1'b1;
          raddr   = IdxW'(i_q + 1'b1);
          j_d     = i_q + (IdxW + 1)'(2);
          state_d = StCmp;
        end
      end

      StCmp: begin
        // rdata is pos[j_q - 1]
        dup_d = dup_q | (rdata == cand_q);
        if (j_q == count_q) begin
          state_d = StWrite;
        end else begin
          re    = 1'b1;
          raddr = j_q[IdxW-1:0];
          j_d   = j_q + 1'b1;
        end
      end

      StWrite: begin
        we          = 1'b1;
        pos_valid_o = 1'b1;
        if (i_q == '0) begin
          done_o  = 1'b1;
          state_d = StIdle;
        end else begin
          i_d     = i_q - 1'b1;
          state_d = StWord;
        end
      end

      default: state_d = StIdle;
    endcase
  end

  assign pos_idx_o = i_q[IdxW-1:0];
  assign pos_o     = wdata;
  assign busy_o    = (state_q != StIdle);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      count_q <= '0;
      bound_q <= '0;
      i_q     <= '0;
      j_q     <= '0;
      prod_q  <= '0;
      cand_q  <= '0;
      dup_q   <= 1'b0;
    end else begin
      state_q <= state_d;
      count_q <= count_d;
      bound_q <= bound_d;
      i_q     <= i_d;
      j_q     <= j_d;
      prod_q  <= prod_d;
      cand_q  <= cand_d;
      dup_q   <= dup_d;
    end
  end

  bike_ram_sdp #(
    .Width (PosW),
    .Depth (MaxCount)
  ) u_pos_mem (
    .clk_i   (clk_i),
    .we_i    (we),
    .waddr_i (i_q[IdxW-1:0]),
    .wdata_i (wdata),
    .re_i    (re),
    .raddr_i (raddr),
    .rdata_o (rdata)
  );

endmodule
