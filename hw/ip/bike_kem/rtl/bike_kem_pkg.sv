// Host-visible codes of bike_kem (doc/bike_kem.md): operations, objects,
// error codes.
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

endpackage
