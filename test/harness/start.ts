console.log('npm start: not built yet');
