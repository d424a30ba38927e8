package pdftestgen

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// HugeICCTag is a one-page PDF (about 900 bytes) whose output intent's ICC
// profile, 176 bytes long, declares a single 'cprt' tag of tagSize bytes.
// A reader that allocates what the tag table declares before checking it
// against the profile's length asks for tagSize bytes: veraPDF 1.30 does,
// and runs out of a 768 MB heap from 700 MB up (FuzzValidate found it).
func HugeICCTag(tagSize uint32) []byte {
	icc := make([]byte, 176)
	be := binary.BigEndian
	be.PutUint32(icc[0:], uint32(len(icc))) // profile size
	be.PutUint32(icc[8:], 0x02100000)       // version 2.1
	copy(icc[12:], "mntrRGB XYZ ")          // class, colour space, PCS
	copy(icc[36:], "acsp")                  // signature
	be.PutUint32(icc[128:], 1)              // tag count
	copy(icc[132:], "cprt")
	be.PutUint32(icc[136:], 144) // offset
	be.PutUint32(icc[140:], tagSize)
	copy(icc[144:], "text\x00\x00\x00\x00(c) none")
	b := pages([]string{textOp(72, 760, 14, "ICC tag")}, helv, "")
	profile := b.add(stream("/N 3", icc))
	intent := b.add(fmt.Sprintf("<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (sRGB) /DestOutputProfile %d 0 R >>", profile))
	b.set(1, strings.TrimSuffix(b.objs[0], " >>")+fmt.Sprintf(" /OutputIntents [%d 0 R] >>", intent))
	return b.bytes("")
}
