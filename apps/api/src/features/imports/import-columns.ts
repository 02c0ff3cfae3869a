import type { DateFormat, Language } from '@odontia/shared/enums';
import { type ImportKind, type ImportMapping, importFields, importTemplates } from '@odontia/shared/schemas/imports';

/**
 * What the wizard proposes for a file's columns (issue 42): each header matched, lower case
 * without accents or punctuation, against the known names of each field in Spanish, English,
 * French and Portuguese ("Apellidos", "Nº Historia", "F. Nacimiento", "Teléfono móvil").
 */

/** "Nº Historia" → "n historia"; "F. Nacimiento" → "f nacimiento"; "E-mail" → "e mail". */
export function normalizeHeader(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[ºª°]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const patientSynonyms: Record<string, readonly string[]> = {
  externalId: [
    'id',
    'codigo',
    'cod',
    'n historia',
    'no historia',
    'num historia',
    'numero historia',
    'numero de historia',
    'n de historia',
    'nhc',
    'n paciente',
    'numero paciente',
    'id paciente',
    'codigo paciente',
    'cod paciente',
    'id externo',
    'external id',
    'patient id',
    'patient number',
    'record number',
    'code',
    'identifiant',
    'id patient',
    'numero dossier',
    'n dossier',
    'codigo do paciente',
    'numero da ficha',
    'ficha',
    // "Nro." is how Latin America abbreviates número.
    'nro ficha',
    'nro de ficha',
    'numero de ficha',
    'n ficha',
    'nro historia',
    'nro paciente',
    'nro',
  ],
  lastName: [
    'apellidos',
    'apellido',
    'primer apellido',
    'last name',
    'lastname',
    'surname',
    'family name',
    'nom',
    'nom de famille',
    'sobrenome',
    'apelido',
    'apelidos',
  ],
  firstName: [
    'nombre',
    'nombres',
    'nombre de pila',
    'first name',
    'firstname',
    'given name',
    'forename',
    'prenom',
    'nome',
    'primeiro nome',
  ],
  ssn: [
    'dni',
    'nif',
    'nie',
    'dni nif',
    'dni nie',
    'documento',
    'n documento',
    'numero de documento',
    'documento de identidad',
    'cedula',
    'cpf',
    'ssn',
    'id number',
    'national id',
    'nir',
    'numero de securite sociale',
    'bi',
    'cartao de cidadao',
  ],
  medicalHistory: [
    'historia clinica',
    'hc',
    'n historia clinica',
    'medical record',
    'medical history',
    'dossier medical',
    'processo clinico',
    'prontuario',
  ],
  birthdate: [
    'fecha de nacimiento',
    'fecha nacimiento',
    'f nacimiento',
    'f nac',
    'fnac',
    'fecha nac',
    'fec nac',
    'nacimiento',
    'birthdate',
    'birth date',
    'date of birth',
    'dob',
    'date de naissance',
    'ne le',
    'data de nascimento',
    'data nascimento',
    'nascimento',
  ],
  sex: ['sexo', 'genero', 'sex', 'gender', 'sexe', 'genre'],
  email: ['email', 'e mail', 'correo', 'correo electronico', 'mail', 'courriel', 'adresse e mail', 'endereco de email'],
  phoneArea: ['prefijo', 'codigo de area', 'cod area', 'area code', 'prefixe', 'indicatif', 'indicativo', 'ddd'],
  phone: [
    'telefono',
    'telefono movil',
    'tel movil',
    'movil',
    'celular',
    'tel',
    'telf',
    'phone',
    'mobile',
    'mobile phone',
    'cell phone',
    'telephone',
    'telephone portable',
    'portable',
    'telemovel',
    'telefone',
  ],
  street: ['direccion', 'domicilio', 'calle', 'address', 'street', 'adresse', 'rue', 'morada', 'endereco', 'rua'],
  city: ['localidad', 'ciudad', 'poblacion', 'municipio', 'city', 'town', 'ville', 'localite', 'cidade', 'localidade'],
  zipCode: [
    'codigo postal',
    'cp',
    'c p',
    'cod postal',
    'zip',
    'zip code',
    'postal code',
    'postcode',
    'code postal',
    'cep',
  ],
  state: ['provincia', 'region', 'state', 'province', 'county', 'departement', 'estado', 'distrito'],
  country: ['pais', 'nacionalidad', 'country', 'pays', 'pais de residencia'],
  obs: [
    'observaciones',
    'notas',
    'comentarios',
    'notes',
    'comments',
    'remarks',
    'observations',
    'remarques',
    'observacoes',
    'notas internas',
  ],
  allergies: ['alergias', 'alergia', 'allergies', 'allergy', 'alergias conhecidas'],
  chronicConditions: [
    'enfermedades cronicas',
    'enfermedades',
    'antecedentes',
    'patologias',
    'chronic conditions',
    'conditions',
    'maladies chroniques',
    'antecedents',
    'doencas cronicas',
    'doencas',
  ],
  currentMedication: [
    'medicacion',
    'medicacion actual',
    'medicamentos',
    'tratamiento actual',
    'medication',
    'current medication',
    'medications',
    'traitement',
    'traitement en cours',
    'medicacao',
    'medicacao atual',
  ],
};

/** Codes of the other system, shared by the catalogue kinds. */
const externalIdNames = [
  'id',
  'id externo',
  'external id',
  'codigo externo',
  'identifiant',
  'identificador',
  'nro',
  'numero',
];

const providerSynonyms: Record<string, readonly string[]> = {
  externalId: [
    ...externalIdNames,
    'codigo',
    'cod',
    'codigo proveedor',
    'cod proveedor',
    'id proveedor',
    'n proveedor',
    'supplier id',
    'supplier code',
    'vendor id',
    'code fournisseur',
    'codigo fornecedor',
    'code',
  ],
  fantasyName: [
    'nombre',
    'proveedor',
    'nombre comercial',
    'nombre de fantasia',
    'name',
    'supplier',
    'supplier name',
    'vendor',
    'trade name',
    'fournisseur',
    'nom',
    'nom commercial',
    'fornecedor',
    'nome',
    'nome fantasia',
  ],
  bussinesName: [
    'razon social',
    'denominacion',
    'nombre fiscal',
    'legal name',
    'company legal name',
    'raison sociale',
    'denominacao social',
  ],
  companyName: ['grupo', 'empresa', 'marca', 'group', 'company', 'groupe', 'grupo empresarial'],
  nif: [
    'nif',
    'cif',
    'cuit',
    'rut',
    'rfc',
    'nif cif',
    'identificacion fiscal',
    'id fiscal',
    'tax id',
    'vat number',
    'vat id',
    'siret',
    'siren',
    'n tva',
    'cnpj',
    'cpf',
    'nipc',
  ],
  taxIdKind: [
    'tipo nif',
    'tipo de identificacion fiscal',
    'tipo documento',
    'tipo id fiscal',
    'tax id type',
    'type identifiant',
    'tipo de documento fiscal',
  ],
  contactName: [
    'contacto',
    'persona de contacto',
    'contact',
    'contact name',
    'contact person',
    'nom du contact',
    'pessoa de contacto',
    'contato',
  ],
  email: ['email', 'e mail', 'correo', 'correo electronico', 'mail', 'courriel', 'endereco de email'],
  phoneBusiness: [
    'telefono',
    'tel',
    'telf',
    'telefono fijo',
    'phone',
    'telephone',
    'business phone',
    'office phone',
    'telephone fixe',
    'telefone',
  ],
  phoneMobile: [
    'movil',
    'telefono movil',
    'celular',
    'mobile',
    'mobile phone',
    'portable',
    'telemovel',
    'telefone celular',
  ],
  commercialAddress: ['direccion', 'domicilio', 'address', 'adresse', 'morada', 'endereco'],
  bankName: ['banco', 'entidad bancaria', 'bank', 'bank name', 'banque', 'banco nome'],
  bankAccount: [
    'iban',
    'cuenta',
    'cuenta bancaria',
    'cbu',
    'n cuenta',
    'bank account',
    'account number',
    'compte bancaire',
    'rib',
    'conta',
    'conta bancaria',
    'nib',
  ],
  currency: ['moneda', 'divisa', 'currency', 'devise', 'monnaie', 'moeda'],
  paymentTermDays: [
    'dias de pago',
    'plazo de pago',
    'plazo',
    'dias',
    'payment terms',
    'payment term',
    'payment days',
    'delai de paiement',
    'prazo de pagamento',
  ],
  notes: ['observaciones', 'notas', 'comentarios', 'notes', 'comments', 'remarks', 'remarques', 'observacoes', 'notas'],
};

const priceListSynonyms: Record<string, readonly string[]> = {
  externalId: [
    ...externalIdNames,
    'id tratamiento',
    'codigo tratamiento externo',
    'treatment id',
    'id acte',
    'id tratamento',
  ],
  code: ['codigo', 'cod', 'codigo tratamiento', 'code', 'treatment code', 'code acte', 'codigo tratamento'],
  name: [
    'tratamiento',
    'nombre',
    'descripcion',
    'prestacion',
    'concepto',
    'treatment',
    'name',
    'description',
    'service',
    'acte',
    'soin',
    'libelle',
    'tratamento',
    'nome',
    'descricao',
  ],
  groupName: [
    'grupo',
    'familia',
    'especialidad',
    'categoria',
    'group',
    'category',
    'family',
    'groupe',
    'famille',
    'categorie',
    'especialidade',
  ],
  price: [
    'precio',
    'precio sin iva',
    'importe',
    'tarifa',
    'pvp',
    'price',
    'net price',
    'amount',
    'fee',
    'prix',
    'prix ht',
    'tarif',
    'preco',
    'preco sem iva',
    'valor',
  ],
  vatRate: ['iva', 'iva %', 'tipo iva', '% iva', 'vat', 'vat rate', 'tax', 'tax rate', 'tva', 'taux tva', 'taxa iva'],
  durationMinutes: [
    'duracion',
    'duracion minutos',
    'minutos',
    'tiempo',
    'duration',
    'minutes',
    'duree',
    'duracao',
    'duracao minutos',
  ],
  labCost: [
    'coste laboratorio',
    'coste de laboratorio',
    'costo laboratorio',
    'laboratorio',
    'lab cost',
    'laboratory cost',
    'cout laboratoire',
    'custo laboratorio',
  ],
};

const inventorySynonyms: Record<string, readonly string[]> = {
  externalId: [...externalIdNames, 'id articulo', 'codigo articulo externo', 'item id', 'id article', 'id artigo'],
  type: ['tipo', 'tipo articulo', 'clase', 'type', 'item type', 'kind', 'type article', 'tipo de artigo'],
  name: [
    'articulo',
    'nombre',
    'producto',
    'descripcion corta',
    'item',
    'name',
    'product',
    'article',
    'nom',
    'produit',
    'artigo',
    'nome',
    'produto',
  ],
  sku: ['referencia', 'ref', 'codigo', 'cod', 'sku', 'reference', 'item code', 'code article', 'referencia artigo'],
  barCode: [
    'codigo de barras',
    'cod barras',
    'ean',
    'ean13',
    'barcode',
    'bar code',
    'upc',
    'code barre',
    'code barres',
    'codigo de barras gtin',
  ],
  manufacturer: ['fabricante', 'laboratorio', 'manufacturer', 'maker', 'fabricant'],
  description: ['descripcion', 'detalle', 'description', 'descricao'],
  costPrice: [
    'precio de coste',
    'precio coste',
    'coste',
    'costo',
    'precio de compra',
    'cost',
    'cost price',
    'purchase price',
    'prix d achat',
    'cout',
    'preco de custo',
    'custo',
  ],
  basePrice: [
    'precio de venta',
    'precio venta',
    'precio de venta sin iva',
    'pvp',
    'precio',
    'price',
    'sale price',
    'selling price',
    'prix de vente',
    'prix',
    'preco de venda',
    'preco',
  ],
  taxRate: ['iva', 'iva %', 'tipo iva', '% iva', 'vat', 'vat rate', 'tax rate', 'tva', 'taux tva', 'taxa iva'],
  openingStock: [
    'existencias',
    'stock',
    'stock inicial',
    'cantidad',
    'unidades',
    'quantity',
    'qty',
    'on hand',
    'opening stock',
    'quantite',
    'quantidade',
    'existencias iniciais',
  ],
  minStock: [
    'stock minimo',
    'minimo',
    'min',
    'minimum stock',
    'min stock',
    'stock mini',
    'stock minimum',
    'estoque minimo',
  ],
  reorderStock: [
    'punto de pedido',
    'punto de reposicion',
    'reposicion',
    'reorder point',
    'reorder level',
    'seuil de commande',
    'ponto de encomenda',
  ],
  maxStock: [
    'stock maximo',
    'maximo',
    'max',
    'maximum stock',
    'max stock',
    'stock maxi',
    'stock maximum',
    'estoque maximo',
  ],
  activePrinciple: [
    'principio activo',
    'principio',
    'active ingredient',
    'active principle',
    'principe actif',
    'principio ativo',
    'substancia ativa',
  ],
  presentation: ['presentacion', 'formato', 'presentation', 'pack', 'apresentacao'],
  brand: ['marca', 'brand', 'marque'],
  model: ['modelo', 'model', 'modele'],
};

/** The patient a balance or an appointment is of: the patients' file's id (its "Nº Historia"). */
const patientOfRow = patientSynonyms.externalId?.filter(
  (word) => !['id', 'codigo', 'cod', 'code', 'nro'].includes(word),
);

const balanceSynonyms: Record<string, readonly string[]> = {
  externalId: ['id saldo', 'codigo saldo', 'n saldo', 'balance id', 'id solde', 'id do saldo', 'id movimiento'],
  patientExternalId: patientOfRow ?? [],
  amount: [
    'saldo',
    'importe',
    'deuda',
    'saldo pendiente',
    'saldo inicial',
    'saldo actual',
    'monto',
    'balance',
    'amount',
    'opening balance',
    'solde',
    'montant',
    'solde initial',
    'valor',
    'montante',
  ],
  date: ['fecha', 'fecha saldo', 'date', 'data', 'fecha del saldo', 'balance date'],
  concept: ['concepto', 'descripcion', 'detalle', 'description', 'concept', 'libelle', 'descricao'],
};

const appointmentSynonyms: Record<string, readonly string[]> = {
  externalId: ['id', 'id cita', 'codigo cita', 'n cita', 'appointment id', 'id rdv', 'id rendez vous', 'id consulta'],
  patientExternalId: patientOfRow ?? [],
  date: ['fecha', 'dia', 'fecha cita', 'date', 'appointment date', 'jour', 'data', 'data consulta'],
  startTime: [
    'hora',
    'hora inicio',
    'hora de inicio',
    'inicio',
    'start',
    'start time',
    'time',
    'heure',
    'heure debut',
    'hora de inicio',
  ],
  durationMinutes: ['duracion', 'duracion min', 'minutos', 'duration', 'duration min', 'minutes', 'duree', 'duracao'],
  endTime: ['hora fin', 'hora de fin', 'fin', 'end', 'end time', 'heure fin', 'hora de fim', 'fim'],
  professional: [
    'profesional',
    'doctor',
    'doctora',
    'odontologo',
    'dentista',
    'professional',
    'dentist',
    'provider',
    'praticien',
    'profissional',
    'medico',
  ],
  reason: ['motivo', 'tratamiento', 'asunto', 'reason', 'treatment', 'motif', 'soin', 'tratamento'],
  status: ['estado', 'situacion', 'status', 'state', 'statut', 'etat', 'estado da consulta'],
  notes: ['notas', 'observaciones', 'comentarios', 'notes', 'comments', 'remarques', 'observacoes'],
};

const synonyms: Record<ImportKind, Record<string, readonly string[]>> = {
  patients: patientSynonyms,
  providers: providerSynonyms,
  priceList: priceListSynonyms,
  inventory: inventorySynonyms,
  balances: balanceSynonyms,
  appointments: appointmentSynonyms,
};

/** Each known name (normalized) → its field, for a kind: the field's own name, the template's header, the synonyms. */
function namesOf(kind: ImportKind): Map<string, string> {
  const names = new Map<string, string>();
  for (const [field, header] of importTemplates[kind]) {
    names.set(normalizeHeader(field), field);
    names.set(normalizeHeader(header), field);
  }
  for (const [field, words] of Object.entries(synonyms[kind])) {
    for (const word of words) if (!names.has(normalizeHeader(word))) names.set(normalizeHeader(word), field);
  }
  return names;
}

const knownNames = new Map<ImportKind, Map<string, string>>();
const namesFor = (kind: ImportKind) => {
  let names = knownNames.get(kind);
  if (!names) {
    names = namesOf(kind);
    knownNames.set(kind, names);
  }
  return names;
};

/** The mapping the headers suggest: each field the first column whose header is one of its names. */
export function suggestMapping(kind: ImportKind, columns: readonly string[]): ImportMapping {
  const mapping: ImportMapping = {};
  const names = namesFor(kind);
  columns.forEach((header, index) => {
    const field = names.get(normalizeHeader(header));
    if (field && mapping[field] === undefined) mapping[field] = index;
  });
  return mapping;
}

/** A saved mapping (field → header) applied to a file's columns: each header found again by name. */
export function mappingFromSaved(
  kind: ImportKind,
  saved: Record<string, string>,
  columns: readonly string[],
): ImportMapping {
  const byHeader = new Map<string, number>();
  columns.forEach((header, index) => {
    const key = normalizeHeader(header);
    if (!byHeader.has(key)) byHeader.set(key, index);
  });
  const mapping: ImportMapping = {};
  const fields = new Set<string>(importFields[kind]);
  for (const [field, header] of Object.entries(saved)) {
    const index = byHeader.get(normalizeHeader(header));
    if (index !== undefined && fields.has(field)) mapping[field] = index;
  }
  return mapping;
}

/** A mapping as saved: field → the header of its column. */
export function savedColumns(mapping: ImportMapping, columns: readonly string[]): Record<string, string> {
  const saved: Record<string, string> = {};
  for (const [field, index] of Object.entries(mapping)) {
    const header = columns[index];
    if (header !== undefined) saved[field] = header;
  }
  return saved;
}

/**
 * A date as the clinic writes it ('DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD', with `/`, `-` or `.`)
 * or ISO ('YYYY-MM-DD', also with a time after it): 'YYYY-MM-DD', or null when it is no real date.
 */
export function parseClinicDate(text: string, format: DateFormat): string | null {
  const value = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+Z?)?$/.exec(value);
  let year: number;
  let month: number;
  let day: number;
  if (iso) {
    [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else {
    const parts = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})$/.exec(value);
    if (!parts) return null;
    const [a, b, c] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
    if (format === 'YYYY-MM-DD') [year, month, day] = [a, b, c];
    else if (format === 'MM/DD/YYYY') [year, month, day] = [c, a, b];
    else [year, month, day] = [c, b, a];
    if (String(year).length !== 4) return null;
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const female = new Set(['mujer', 'f', 'femenino', 'female', 'woman', 'w', 'femme', 'feminin', 'feminino', 'mulher']);
const male = new Set(['hombre', 'h', 'v', 'varon', 'masculino', 'male', 'man', 'homme', 'masculin', 'homem']);

/** A sex as another system writes it; "M" is Mujer in Spanish and male elsewhere (the clinic's language says). */
export function parseSex(text: string, language: Language): 'male' | 'female' | null {
  const word = normalizeHeader(text);
  if (female.has(word)) return 'female';
  if (male.has(word)) return 'male';
  if (word === 'm') return language === 'es' ? 'female' : 'male';
  return null;
}
