/** Every area of the sidebar (apps/web/src/app/layouts/menu.ts) with its Spanish label and page title. */
export interface Area {
  section: string;
  /** The group the link sits in, if any. */
  group?: string;
  label: string;
  path: string;
  title: string;
  /** A built page (not the coming-soon page). */
  built?: boolean;
}

export const areas: Area[] = [
  { section: 'Clínica', label: 'Panel', path: '/dashboard', title: 'Panel', built: true },
  { section: 'Clínica', label: 'Pacientes', path: '/patients', title: 'Pacientes', built: true },
  { section: 'Clínica', label: 'Agenda', path: '/calendar', title: 'Agenda', built: true },
  { section: 'Clínica', label: 'Controles', path: '/recalls', title: 'Controles', built: true },
  {
    section: 'Clínica',
    label: 'Seguimiento de planes',
    path: '/treatment-plans/follow-up',
    title: 'Seguimiento de planes',
    built: true,
  },
  {
    section: 'Clínica',
    label: 'Laboratorio dental',
    path: '/lab-cases',
    title: 'Trabajos de laboratorio',
    built: true,
  },
  { section: 'Clínica', label: 'Lista de espera', path: '/waiting-list', title: 'Lista de espera', built: true },
  { section: 'Clínica', label: 'Mensajes', path: '/inbox', title: 'Bandeja de mensajes', built: true },
  { section: 'Inventario', label: 'Farmacias', path: '/medications', title: 'Farmacias', built: true },
  { section: 'Inventario', label: 'Insumos', path: '/supplies', title: 'Insumos', built: true },
  {
    section: 'Inventario',
    label: 'Para pedir',
    path: '/inventory/reorder',
    title: 'Artículos para pedir',
    built: true,
  },
  { section: 'Inventario', label: 'Proveedores', path: '/providers', title: 'Proveedores', built: true },
  { section: 'Comercial', label: 'Ventas', path: '/sales', title: 'Ventas', built: true },
  { section: 'Comercial', label: 'Cobranzas', path: '/collections', title: 'Cobranzas', built: true },
  { section: 'Comercial', label: 'Caja', path: '/cash', title: 'Caja', built: true },
  { section: 'Comercial', label: 'Planes de pago', path: '/payment-plans', title: 'Planes de pago', built: true },
  { section: 'Comercial', label: 'Clientes', path: '/customers', title: 'Clientes', built: true },
  { section: 'Comercial', label: 'Lista de precios', path: '/price-list', title: 'Lista de precios', built: true },
  {
    section: 'Comercial',
    group: 'Obras sociales y seguros',
    label: 'Obras sociales',
    path: '/payers',
    title: 'Obras sociales',
    built: true,
  },
  {
    section: 'Comercial',
    group: 'Obras sociales y seguros',
    label: 'Presentaciones',
    path: '/payer-presentations',
    title: 'Presentaciones a obras sociales',
    built: true,
  },
  {
    section: 'Comercial',
    group: 'Compras y pagos',
    label: 'Compras',
    path: '/purchases',
    title: 'Compras',
    built: true,
  },
  { section: 'Comercial', group: 'Compras y pagos', label: 'Pagos', path: '/payments', title: 'Pagos', built: true },
  {
    section: 'Comercial',
    group: 'Compras y pagos',
    label: 'Liquidaciones',
    path: '/settlements',
    title: 'Liquidaciones',
    built: true,
  },
  {
    section: 'Comercial',
    group: 'Cuentas corrientes',
    label: 'Proveedores',
    path: '/cc-providers',
    title: 'Cuenta corriente de proveedores',
    built: true,
  },
  {
    section: 'Comercial',
    group: 'Cuentas corrientes',
    label: 'Clientes',
    path: '/cc-customers',
    title: 'Cuenta corriente de clientes',
    built: true,
  },
  { section: 'Administración', label: 'Informes', path: '/reports', title: 'Informes', built: true },
  { section: 'Administración', label: 'Horarios', path: '/schedules', title: 'Horarios de atención', built: true },
  {
    section: 'Administración',
    label: 'Datos fiscales',
    path: '/settings/fiscal',
    title: 'Datos fiscales de la clínica',
    built: true,
  },
  { section: 'Administración', label: 'Configuración', path: '/settings', title: 'Configuración', built: true },
  { section: 'Administración', label: 'Cajas', path: '/settings/cash-registers', title: 'Cajas', built: true },
  {
    section: 'Administración',
    label: 'Plantillas de documentos',
    path: '/settings/authorization-templates',
    title: 'Plantillas de documentos',
    built: true,
  },
  // Webhooks for integrators (issue 42).
  { section: 'Administración', label: 'Webhooks', path: '/settings/webhooks', title: 'Webhooks', built: true },
  {
    section: 'Administración',
    group: 'Mi cuenta',
    label: 'Datos de la cuenta',
    path: '/account',
    title: 'Datos de la cuenta',
    built: true,
  },
  {
    section: 'Administración',
    group: 'Mi cuenta',
    label: 'Usuarios',
    path: '/account/users',
    title: 'Usuarios',
    built: true,
  },
  // Issue 42: the clinic's API tokens and its full export.
  {
    section: 'Administración',
    group: 'Mi cuenta',
    label: 'Tokens de API',
    path: '/settings/api-tokens',
    title: 'Tokens de API de la clínica',
    built: true,
  },
  {
    section: 'Administración',
    group: 'Mi cuenta',
    label: 'Exportar todos los datos',
    path: '/account/export',
    title: 'Exportar todos los datos',
    built: true,
  },
  {
    section: 'Administración',
    group: 'Mi cuenta',
    label: 'Importar datos',
    path: '/account/import',
    title: 'Importar datos',
    built: true,
  },
];

/** Deep pages reached by URL only, each with its own title. */
export const deepPages: { path: string; title: string }[] = [
  { path: '/patients/create', title: 'Nuevo paciente' },
  { path: '/patients/42/mh', title: 'Historia clínica' },
  { path: '/patients/42/mh/diagnosis/new', title: 'Nuevo diagnóstico' },
  { path: '/patients/42/mh/laboratory/show/7', title: 'Orden de laboratorio' },
  { path: '/patients/42/mh/attendance/edit/7', title: 'Editar atención' },
  { path: '/providers/create', title: 'Nuevo proveedor' },
  { path: '/profile', title: 'Mi perfil' },
  { path: '/collections/view/9', title: 'Detalle de la cobranza' },
  { path: '/reports', title: 'Informes' },
  // The last one names no sale (9 is not an id): the walk ends on its "Volver a ventas".
  { path: '/sales/view/9', title: 'Detalle de la venta' },
];
