package xdm

// Type is the dynamic type of an item.
type Type uint8

// Item types. Only TNode is a node; the others are atomic.
const (
	TNode    Type = iota // a node of the evaluated document (Item.Node)
	TUntyped             // xs:untypedAtomic (Item.S)
	TString              // xs:string (Item.S)
	TBoolean             // xs:boolean (Item.B)
	TDecimal             // xs:decimal (Item.D)
	TInteger             // xs:integer (Item.D, scale 0)
	TDouble              // xs:double (Item.F)
	TDate                // xs:date (Item.Date)
)

var typeNames = [...]string{"node()", "xs:untypedAtomic", "xs:string", "xs:boolean",
	"xs:decimal", "xs:integer", "xs:double", "xs:date"}

func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "unknown"
}

// IsNumeric reports whether t is xs:decimal, xs:integer or xs:double.
func (t Type) IsNumeric() bool { return t == TDecimal || t == TInteger || t == TDouble }

// Item is one XDM item: a node (by id in the evaluated document) or an
// atomic value. Items are small values and are copied freely.
type Item struct {
	T    Type
	B    bool
	Doc  uint16 // TNode: 0 = the evaluated document, k = the k-th registered extra document (fn:document)
	Node int32  // TNode: the xmltree.NodeID
	S    string
	D    Decimal
	F    float64
	Date Date
}

// Sequence is an ordered sequence of items. nil is the empty sequence.
type Sequence []Item

// QName is an expanded name.
type QName struct {
	Space string // namespace URI, "" for none
	Local string
}

func (q QName) String() string {
	if q.Space == "" {
		return q.Local
	}
	return "Q{" + q.Space + "}" + q.Local
}

// Constructors for atomic items.

// NodeItem returns a node item of the evaluated document.
func NodeItem(id int32) Item { return Item{T: TNode, Node: id} }

// NodeItemIn returns a node item of document doc (0: the evaluated document).
func NodeItemIn(doc uint16, id int32) Item { return Item{T: TNode, Doc: doc, Node: id} }

// NodeKey orders node items: by document, then document order.
func (it Item) NodeKey() int64 { return int64(it.Doc)<<32 | int64(uint32(it.Node)) }

// String returns an xs:string item.
func String(s string) Item { return Item{T: TString, S: s} }

// Untyped returns an xs:untypedAtomic item.
func Untyped(s string) Item { return Item{T: TUntyped, S: s} }

// Bool returns an xs:boolean item.
func Bool(b bool) Item { return Item{T: TBoolean, B: b} }

// Integer returns an xs:integer item.
func Integer(i int64) Item { return Item{T: TInteger, D: DecimalFromInt(i)} }

// IntegerD returns an xs:integer item from an integral decimal.
func IntegerD(d Decimal) Item { return Item{T: TInteger, D: d} }

// Dec returns an xs:decimal item.
func Dec(d Decimal) Item { return Item{T: TDecimal, D: d} }

// Double returns an xs:double item.
func Double(f float64) Item { return Item{T: TDouble, F: f} }

// DateItem returns an xs:date item.
func DateItem(d Date) Item { return Item{T: TDate, Date: d} }

// IsNode reports whether it is a node.
func (it Item) IsNode() bool { return it.T == TNode }

// StringValue returns the canonical string of an atomic item (the result of
// casting it to xs:string). It must not be called on nodes.
func (it Item) StringValue() string {
	switch it.T {
	case TString, TUntyped:
		return it.S
	case TBoolean:
		if it.B {
			return "true"
		}
		return "false"
	case TDecimal, TInteger:
		return it.D.String()
	case TDouble:
		return FormatDouble(it.F)
	case TDate:
		return it.Date.String()
	}
	return ""
}

// AsFloat returns a numeric item as float64.
func (it Item) AsFloat() float64 {
	if it.T == TDouble {
		return it.F
	}
	return it.D.Float64()
}
